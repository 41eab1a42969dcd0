/**
 * The back office's modules by route (issue 16), each loaded when its route is first matched. The
 * app's route table reaches them through this one module, loaded lazily itself, so the customer
 * entry holds a single dynamic import for the whole back office (not the preload list of every
 * admin page).
 */
export const adminRouteModules = {
  root: () => import('./components/admin-root.tsx').then((m) => ({ Component: m.AdminRoot })),
  layout: () => import('./components/admin-layout.tsx').then((m) => ({ Component: m.AdminLayout })),
  login: () => import('./pages/login-page.tsx').then((m) => ({ Component: m.AdminLoginPage })),
  dashboard: () => import('./pages/dashboard-page.tsx').then((m) => ({ Component: m.DashboardPage })),
  users: () => import('./pages/users-page.tsx').then((m) => ({ Component: m.UsersPage })),
  user: () => import('./pages/user-page.tsx').then((m) => ({ Component: m.UserPage })),
  kyc: () => import('./pages/kyc-queue-page.tsx').then((m) => ({ Component: m.KycQueuePage })),
  kycReview: () => import('./pages/kyc-review-page.tsx').then((m) => ({ Component: m.KycReviewPage })),
  withdrawals: () => import('./pages/withdrawals-page.tsx').then((m) => ({ Component: m.WithdrawalsPage })),
  screening: () => import('./pages/screening-page.tsx').then((m) => ({ Component: m.ScreeningPage })),
  adjustments: () => import('./pages/adjustments-page.tsx').then((m) => ({ Component: m.AdjustmentsPage })),
  operators: () => import('./pages/operators-page.tsx').then((m) => ({ Component: m.OperatorsPage })),
  audit: () => import('./pages/audit-page.tsx').then((m) => ({ Component: m.AuditPage })),
  settings: () => import('./pages/settings-page.tsx').then((m) => ({ Component: m.SettingsPage })),
};
export type AdminRouteModule = keyof typeof adminRouteModules;
