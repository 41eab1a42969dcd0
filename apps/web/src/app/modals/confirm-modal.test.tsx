// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { createInstance } from 'i18next';
import { I18nextProvider, initReactI18next } from 'react-i18next';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { closeAllModals, confirm } from '../../stores/modal-store.ts';
import { ConfirmModal } from './confirm-modal.tsx';

/** The confirm modal: OK shows loading while the caller's action runs, then closes. */

const i18n = createInstance();

beforeAll(async () => {
  // Ant Design's responsive helpers read matchMedia, which jsdom lacks.
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
  await i18n.use(initReactI18next).init({
    lng: 'en-US',
    resources: { 'en-US': { common: { confirm: { ok: 'Confirm', cancel: 'Cancel' } } } },
    defaultNS: 'common',
  });
});

afterEach(() => {
  act(() => closeAllModals());
  cleanup();
});

function renderModal() {
  render(
    <I18nextProvider i18n={i18n}>
      <ConfirmModal />
    </I18nextProvider>,
  );
}

function okButton(): HTMLElement {
  return screen.getByRole('button', { name: /Confirm/ });
}

describe('ConfirmModal', () => {
  it('shows loading on OK while onOk runs, then closes and resolves true', async () => {
    renderModal();
    let finish: () => void = () => {};
    let outcome: boolean | undefined;
    act(() => {
      void confirm({
        title: 'Delete this address?',
        content: 'It cannot be undone.',
        onOk: () => new Promise<void>((resolve) => (finish = resolve)),
      }).then((value) => (outcome = value));
    });
    expect(await screen.findByText('Delete this address?')).toBeTruthy();
    expect(screen.getByText('It cannot be undone.')).toBeTruthy();

    fireEvent.click(okButton());
    expect(okButton().className).toMatch(/ant-btn-loading/);
    expect(outcome).toBeUndefined();

    await act(async () => finish());
    expect(outcome).toBe(true);
  });

  it('stays open and stops loading when onOk fails', async () => {
    renderModal();
    let outcome: boolean | undefined;
    act(() => {
      void confirm({ title: 'Redeem now?', onOk: () => Promise.reject(new Error('refused')) }).then(
        (value) => (outcome = value),
      );
    });
    await screen.findByText('Redeem now?');
    await act(async () => fireEvent.click(okButton()));
    expect(okButton().className).not.toMatch(/ant-btn-loading/);
    expect(outcome).toBeUndefined();
  });

  it('resolves false on Cancel', async () => {
    renderModal();
    let outcome: boolean | undefined;
    act(() => {
      void confirm({ title: 'Leave this page?' }).then((value) => (outcome = value));
    });
    await screen.findByText('Leave this page?');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: /Cancel/ })));
    expect(outcome).toBe(false);
  });
});
