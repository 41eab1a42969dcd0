// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { KycReminder } from './kyc-reminder.tsx';

const self = vi.hoisted(() => ({ status: 0 as number | undefined }));
const navigate = vi.hoisted(() => vi.fn());

vi.mock('react-i18next', () => ({ useTranslation: () => ({ t: (key: string) => key }) }));
vi.mock('../../../lib/get-self.ts', () => ({
  useSelf: () => ({ data: self.status === undefined ? undefined : { status: { user: { status: self.status } } } }),
}));
vi.mock('react-router', async (importOriginal) => ({
  ...(await importOriginal<Record<string, unknown>>()),
  useNavigate: () => navigate,
}));

const Scope = ({ children }: { children: ReactNode }) => <>{children}</>;

async function renderAt(path: string) {
  await act(async () => {
    render(
      <MemoryRouter initialEntries={[path]}>
        <KycReminder toastScope={Scope} />
      </MemoryRouter>,
    );
  });
}

/**
 * The identity reminder (docs/identity.md "Web"): a user whose identity is not verified (status 0)
 * is asked to verify, with a button to the identity overview that leads back to where they were;
 * never on the identity pages themselves, never for a verified user.
 */
// The first render loads Ant Design: seconds on a machine shared by parallel builds.
describe('KycReminder', { timeout: 30_000 }, () => {
  beforeAll(() => {
    globalThis.ResizeObserver ??= class {
      observe() {}
      unobserve() {}
      disconnect() {}
    };
    window.matchMedia ??= ((query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    })) as typeof window.matchMedia;
  });
  afterEach(() => {
    cleanup();
    document.body.innerHTML = '';
    navigate.mockReset();
  });

  it('asks an unverified user to verify, and the button goes to the overview with the way back', async () => {
    self.status = 0;
    await renderAt('/account/wallet?coin=BTC');
    // Shown within the render's act: the negative cases below read the same moment.
    expect(screen.getByText('kyc.title')).toBeTruthy();
    expect(screen.getByText('kyc.description')).toBeTruthy();
    await act(async () => fireEvent.click(screen.getByTestId('kyc-verify')));
    expect(navigate).toHaveBeenCalledWith(`/identity?returnTo=${encodeURIComponent('/account/wallet?coin=BTC')}`);
  });

  it.each(['/identity', '/identity/basic'])('is not shown on the identity page %s', async (path) => {
    self.status = 0;
    await renderAt(path);
    expect(screen.queryByText('kyc.title')).toBeNull();
  });

  it.each([
    ['a verified user', 1],
    ['a user not loaded yet', undefined],
  ])('is not shown to %s', async (_, status) => {
    self.status = status;
    await renderAt('/account/wallet');
    expect(screen.queryByText('kyc.title')).toBeNull();
  });
});
