import type { ComponentType } from 'react';
import { AdminRoot } from './components/admin-root.tsx';
import { AdminLayout } from './components/admin-layout.tsx';
import { AdminLoginPage } from './pages/login-page.tsx';
import { DashboardPage } from './pages/dashboard-page.tsx';
import { UsersPage } from './pages/users-page.tsx';
import { UserPage } from './pages/user-page.tsx';
import { KycQueuePage } from './pages/kyc-queue-page.tsx';
import { KycReviewPage } from './pages/kyc-review-page.tsx';
import { DepositsPage } from './pages/deposits-page.tsx';
import { WithdrawalsPage } from './pages/withdrawals-page.tsx';
import { WiresPage } from './pages/wires-page.tsx';
import { CardsPage } from './pages/cards-page.tsx';
import { TrustsPage } from './pages/trusts-page.tsx';
import { ScreeningPage } from './pages/screening-page.tsx';
import { AdjustmentsPage } from './pages/adjustments-page.tsx';
import { BroadcastsPage } from './pages/broadcasts-page.tsx';
import { BannersPage } from './pages/banners-page.tsx';
import { OperatorsPage } from './pages/operators-page.tsx';
import { AuditPage } from './pages/audit-page.tsx';
import { SettingsPage } from './pages/settings-page.tsx';

/**
 * The back office's components by route (issue 16). The app's route table reaches them through this
 * one module, loaded lazily, so the whole back office is one dynamic import of the customer entry:
 * one more entry in the chunk graph rather than one per page, which kept the chunks the customer
 * pages share as they were (with a lazy import per page, Ant Design's shared chunks were split
 * differently and every customer page grew by about 1 KB).
 */
const components = {
  root: AdminRoot,
  layout: AdminLayout,
  login: AdminLoginPage,
  dashboard: DashboardPage,
  users: UsersPage,
  user: UserPage,
  kyc: KycQueuePage,
  kycReview: KycReviewPage,
  deposits: DepositsPage,
  withdrawals: WithdrawalsPage,
  wires: WiresPage,
  cards: CardsPage,
  trusts: TrustsPage,
  screening: ScreeningPage,
  adjustments: AdjustmentsPage,
  broadcasts: BroadcastsPage,
  banners: BannersPage,
  operators: OperatorsPage,
  audit: AuditPage,
  settings: SettingsPage,
} satisfies Record<string, ComponentType>;

export type AdminRouteModule = keyof typeof components;

type RouteModule = () => Promise<{ Component: ComponentType }>;

/** The route module (`{ Component }`) of each back-office route, for the route table's `lazy`. */
export const adminRouteModules = {} as Record<AdminRouteModule, RouteModule>;
for (const [name, Component] of Object.entries(components) as [AdminRouteModule, ComponentType][]) {
  adminRouteModules[name] = () => Promise.resolve({ Component });
}
