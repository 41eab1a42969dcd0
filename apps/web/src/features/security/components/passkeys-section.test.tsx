// @vitest-environment jsdom
import { PASSKEYS_PER_USER_MAX, type PasskeyItem } from '@meridian/contracts/passkeys';
import { validationMessage } from '@meridian/contracts/validation';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { polyfillJsdom, renderInLocale } from '../testing/render-page.tsx';
import { PasskeysSection } from './passkeys-section.tsx';

const browser = vi.hoisted(() => ({ isSupported: true }));
const passkeys = vi.hoisted(() => ({ list: [] as PasskeyItem[] }));
const createPasskey = vi.hoisted(() => vi.fn());
const registerPasskey = vi.hoisted(() => vi.fn());
const renamePasskey = vi.hoisted(() => vi.fn());
const removePasskey = vi.hoisted(() => vi.fn());

vi.mock('../../../lib/passkey.ts', () => ({ isPasskeySupported: () => browser.isSupported, createPasskey }));
vi.mock('../api/get-passkeys.ts', () => ({ usePasskeys: () => ({ isLoading: false, data: passkeys.list }) }));
vi.mock('../api/register-passkey.ts', () => ({ useRegisterPasskey: () => registerPasskey }));
vi.mock('../api/rename-passkey.ts', () => ({ renamePasskey }));
vi.mock('../api/remove-passkey.ts', () => ({ useRemovePasskey: () => removePasskey }));

const passkey = (index: number): PasskeyItem => ({
  id: `00000000-0000-4000-8000-00000000000${index % 10}`,
  name: `Key ${index}`,
  transports: ['internal'],
  isBackedUp: true,
  createdAt: '2026-01-02T03:04:05.000Z',
  lastUsedAt: null,
});
const addButton = () => screen.getByTestId('passkey-add') as HTMLButtonElement;

/**
 * The passkeys of `/my/security` (docs/passkeys.md): add (a name, the browser's dialog, then the
 * security check), rename, remove; adding needs a browser that can, and stops at the maximum.
 */
// The first render loads Ant Design: seconds on a machine shared by parallel builds.
describe('PasskeysSection', { timeout: 30_000 }, () => {
  beforeAll(polyfillJsdom);
  afterEach(() => {
    cleanup();
    browser.isSupported = true;
    passkeys.list = [];
    for (const mock of [createPasskey, registerPasskey, renamePasskey, removePasskey]) mock.mockReset();
  });

  it('adding needs a browser that can use passkeys, and stops at the maximum', async () => {
    browser.isSupported = false;
    await renderInLocale(<PasskeysSection />, 'en-US');
    expect(addButton().disabled).toBe(true);
    expect(screen.getByText('This browser cannot use passkeys.')).toBeTruthy();
    cleanup();
    browser.isSupported = true;
    passkeys.list = Array.from({ length: PASSKEYS_PER_USER_MAX }, (_, index) => passkey(index));
    await renderInLocale(<PasskeysSection />, 'en-US');
    expect(addButton().disabled).toBe(true);
    expect(screen.getAllByTestId('passkey-item')).toHaveLength(PASSKEYS_PER_USER_MAX);
    cleanup();
    passkeys.list = [passkey(1)];
    await renderInLocale(<PasskeysSection />, 'zh-HK');
    expect(addButton().disabled).toBe(false);
  });

  it('add: the name first, then the browser dialog, then registration through the security check', async () => {
    createPasskey.mockResolvedValue({ kind: 'ok', value: { attestation: 'from-the-browser' } });
    await renderInLocale(<PasskeysSection />, 'en-US');
    act(() => fireEvent.click(addButton()));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByTestId('passkey-name-input'), { target: { value: 'Work laptop' } });
    await act(async () => fireEvent.click(within(dialog).getByTestId('passkey-name-submit')));
    await waitFor(() => expect(registerPasskey).toHaveBeenCalledTimes(1));
    expect(createPasskey).toHaveBeenCalledTimes(1);
    expect(registerPasskey.mock.calls[0]?.[0]).toEqual({ name: 'Work laptop', attestation: 'from-the-browser' });
  });

  it('add: a blank name is refused before the browser dialog opens', async () => {
    await renderInLocale(<PasskeysSection />, 'en-US');
    act(() => fireEvent.click(addButton()));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByTestId('passkey-name-input'), { target: { value: '   ' } });
    await act(async () => fireEvent.click(within(dialog).getByTestId('passkey-name-submit')));
    expect(await within(dialog).findByText(validationMessage('validation.passkeyName', 'en-US'))).toBeTruthy();
    expect(createPasskey).not.toHaveBeenCalled();
  });

  it('add: a closed browser dialog says so and registers nothing', async () => {
    createPasskey.mockResolvedValue({ kind: 'cancelled' });
    await renderInLocale(<PasskeysSection />, 'en-US');
    act(() => fireEvent.click(addButton()));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByTestId('passkey-name-input'), { target: { value: 'My phone' } });
    await act(async () => fireEvent.click(within(dialog).getByTestId('passkey-name-submit')));
    expect(
      await within(dialog).findByText('The passkey dialog was closed or timed out. Please try again.'),
    ).toBeTruthy();
    expect(registerPasskey).not.toHaveBeenCalled();
  });

  it('rename saves the new name of that passkey; remove goes through the security check', async () => {
    passkeys.list = [passkey(1), passkey(2)];
    renamePasskey.mockResolvedValue({ statusCode: 200, message: 'Success', content: null });
    await renderInLocale(<PasskeysSection />, 'en-US');
    act(() => fireEvent.click(screen.getAllByTestId('passkey-rename')[1] as HTMLElement));
    const dialog = await screen.findByRole('dialog');
    const input = within(dialog).getByTestId('passkey-name-input') as HTMLInputElement;
    expect(input.value).toBe('Key 2');
    fireEvent.change(input, { target: { value: 'Old phone' } });
    await act(async () => fireEvent.click(within(dialog).getByTestId('passkey-name-submit')));
    await waitFor(() => expect(renamePasskey).toHaveBeenCalledWith(passkey(2).id, 'Old phone'));
    act(() => fireEvent.click(screen.getAllByTestId('passkey-remove')[0] as HTMLElement));
    expect(removePasskey).toHaveBeenCalledWith(passkey(1).id);
  });
});
