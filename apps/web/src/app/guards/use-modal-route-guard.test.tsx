// @vitest-environment jsdom
import { act, cleanup, render } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import {
  closeAllModals,
  getModalState,
  isAnyModalOpen,
  openActionModal,
  openLocaleModal,
} from '../../stores/modal-store.ts';
import { useModalRouteGuard } from './use-modal-route-guard.ts';

/** The router guard: with a modal open, navigation is cancelled and the modal closes. */

function Layout() {
  useModalRouteGuard();
  return <Outlet />;
}

function renderRouter(initialEntries: string[]) {
  const router = createMemoryRouter(
    [
      {
        Component: Layout,
        children: [
          { path: '/', Component: () => <p>home</p> },
          { path: '/about', Component: () => <p>about</p> },
          { path: '/exchange', Component: () => <p>exchange</p> },
        ],
      },
    ],
    { initialEntries, initialIndex: initialEntries.length - 1 },
  );
  render(<RouterProvider router={router} />);
  return router;
}

afterEach(() => {
  cleanup();
  closeAllModals();
});

describe('modal route guard', () => {
  it('lets navigation through when no modal is open', async () => {
    const router = renderRouter(['/about']);
    await act(() => router.navigate('/exchange'));
    expect(router.state.location.pathname).toBe('/exchange');
  });

  it('cancels a link navigation while a modal is open and closes the modal', async () => {
    const router = renderRouter(['/about']);
    act(() => openLocaleModal());
    await act(() => router.navigate('/exchange'));
    expect(router.state.location.pathname).toBe('/about');
    expect(isAnyModalOpen()).toBe(false);
    // The next navigation goes through.
    await act(() => router.navigate('/exchange'));
    expect(router.state.location.pathname).toBe('/exchange');
  });

  it('cancels the back button while a modal is open', async () => {
    const router = renderRouter(['/', '/about']);
    act(() => openActionModal('login', { returnTo: '/about' }));
    await act(() => router.navigate(-1));
    expect(router.state.location.pathname).toBe('/about');
    expect(getModalState().action).toBeNull();
  });

  it('resolves a pending confirm as cancelled when navigation closes it', async () => {
    const router = renderRouter(['/about']);
    const { confirm } = await import('../../stores/modal-store.ts');
    let outcome: boolean | undefined;
    act(() => {
      void confirm({ title: 'Delete address?' }).then((value) => {
        outcome = value;
      });
    });
    await act(() => router.navigate('/'));
    expect(router.state.location.pathname).toBe('/about');
    expect(outcome).toBe(false);
  });
});
