import { useState } from 'react';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { routes } from './routes.tsx';

/**
 * The router is created on first render, not at import: start-up first removes `?locale=` and
 * `?_lt=` from the address, and the router must read the cleaned address.
 */
export function AppRouter() {
  const [router] = useState(() => createBrowserRouter(routes));
  return <RouterProvider router={router} />;
}
