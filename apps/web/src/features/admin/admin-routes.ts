import type { ComponentType } from 'react';
import { AdminRoot } from './components/admin-root.tsx';
import { AdminLayout } from './components/admin-layout.tsx';
import { AdminLoginPage } from './pages/login-page.tsx';
import { DashboardPage } from './pages/dashboard-page.tsx';

/**
 * The back office's route modules. The app's route table reaches them through this one
 * module, loaded lazily from the customer entry (one dynamic import there, so the chunks the
 * customer pages share stay as they were). The operator shell — root, layout, login and dashboard —
 * is in this module; every other page is a dynamic import of its own, loaded when its route is
 * first opened, so a new admin screen adds to its own chunk and not to the back office's first
 * paint (scripts/bundle-budget.mjs).
 */
const shell = {
  root: AdminRoot,
  layout: AdminLayout,
  login: AdminLoginPage,
  dashboard: DashboardPage,
} satisfies Record<string, ComponentType>;

type RouteModule = () => Promise<{ Component: ComponentType }>;

/** Each lazily loaded page: its module's import and the name of its component. */
const pages = {
  users: () => import('./pages/users-page.tsx').then((m) => ({ Component: m.UsersPage })),
  user: () => import('./pages/user-page.tsx').then((m) => ({ Component: m.UserPage })),
  kyc: () => import('./pages/kyc-queue-page.tsx').then((m) => ({ Component: m.KycQueuePage })),
  kycReview: () => import('./pages/kyc-review-page.tsx').then((m) => ({ Component: m.KycReviewPage })),
  deposits: () => import('./pages/deposits-page.tsx').then((m) => ({ Component: m.DepositsPage })),
  withdrawals: () => import('./pages/withdrawals-page.tsx').then((m) => ({ Component: m.WithdrawalsPage })),
  wires: () => import('./pages/wires-page.tsx').then((m) => ({ Component: m.WiresPage })),
  cards: () => import('./pages/cards-page.tsx').then((m) => ({ Component: m.CardsPage })),
  proApplications: () =>
    import('./pages/pro-applications-page.tsx').then((m) => ({ Component: m.ProApplicationsPage })),
  trusts: () => import('./pages/trusts-page.tsx').then((m) => ({ Component: m.TrustsPage })),
  screening: () => import('./pages/screening-page.tsx').then((m) => ({ Component: m.ScreeningPage })),
  chain: () => import('./pages/chain-page.tsx').then((m) => ({ Component: m.ChainPage })),
  adjustments: () => import('./pages/adjustments-page.tsx').then((m) => ({ Component: m.AdjustmentsPage })),
  broadcasts: () => import('./pages/broadcasts-page.tsx').then((m) => ({ Component: m.BroadcastsPage })),
  banners: () => import('./pages/banners-page.tsx').then((m) => ({ Component: m.BannersPage })),
  support: () => import('./pages/support-page.tsx').then((m) => ({ Component: m.SupportPage })),
  operators: () => import('./pages/operators-page.tsx').then((m) => ({ Component: m.OperatorsPage })),
  audit: () => import('./pages/audit-page.tsx').then((m) => ({ Component: m.AuditPage })),
  settings: () => import('./pages/settings-page.tsx').then((m) => ({ Component: m.SettingsPage })),
} satisfies Record<string, RouteModule>;

export type AdminRouteModule = keyof typeof shell | keyof typeof pages;

/** The route module (`{ Component }`) of each back-office route, for the route table's `lazy`. */
export const adminRouteModules = { ...pages } as Record<AdminRouteModule, RouteModule>;
for (const [name, Component] of Object.entries(shell) as [keyof typeof shell, ComponentType][]) {
  adminRouteModules[name] = () => Promise.resolve({ Component });
}
