import { lazy } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import { AdminLayout } from './components/admin-layout.tsx';
import { AdminRoot } from './components/admin-root.tsx';
import { ADMIN_PATHS } from './lib/admin-paths.ts';

/* Each page is its own chunk, loaded when first opened. */
const AdminLoginPage = lazy(() => import('./pages/login-page.tsx').then((m) => ({ default: m.AdminLoginPage })));
const DashboardPage = lazy(() => import('./pages/dashboard-page.tsx').then((m) => ({ default: m.DashboardPage })));
const UsersPage = lazy(() => import('./pages/users-page.tsx').then((m) => ({ default: m.UsersPage })));
const UserPage = lazy(() => import('./pages/user-page.tsx').then((m) => ({ default: m.UserPage })));
const KycQueuePage = lazy(() => import('./pages/kyc-queue-page.tsx').then((m) => ({ default: m.KycQueuePage })));
const KycReviewPage = lazy(() => import('./pages/kyc-review-page.tsx').then((m) => ({ default: m.KycReviewPage })));
const WithdrawalsPage = lazy(() =>
  import('./pages/withdrawals-page.tsx').then((m) => ({ default: m.WithdrawalsPage })),
);
const ScreeningPage = lazy(() => import('./pages/screening-page.tsx').then((m) => ({ default: m.ScreeningPage })));
const AdjustmentsPage = lazy(() =>
  import('./pages/adjustments-page.tsx').then((m) => ({ default: m.AdjustmentsPage })),
);
const OperatorsPage = lazy(() => import('./pages/operators-page.tsx').then((m) => ({ default: m.OperatorsPage })));
const AuditPage = lazy(() => import('./pages/audit-page.tsx').then((m) => ({ default: m.AuditPage })));
const SettingsPage = lazy(() => import('./pages/settings-page.tsx').then((m) => ({ default: m.SettingsPage })));

/** `ADMIN_PATHS` relative to `/admin`, as the routes below `/admin/*` take them. */
function under(path: string): string {
  return path.slice(`${ADMIN_PATHS.dashboard}/`.length);
}

/**
 * The back office's route table (issue 16), rendered at `/admin/*`: the sign-in page, and every
 * other page inside the operator layout (which sends an operator without a session to sign in).
 * Any other address under `/admin` opens the dashboard.
 */
export function AdminApp() {
  return (
    <Routes>
      <Route element={<AdminRoot />}>
        <Route path={under(ADMIN_PATHS.login)} element={<AdminLoginPage />} />
        <Route element={<AdminLayout />}>
          <Route index element={<DashboardPage />} />
          <Route path={under(ADMIN_PATHS.users)} element={<UsersPage />} />
          <Route path={under(ADMIN_PATHS.user)} element={<UserPage />} />
          <Route path={under(ADMIN_PATHS.kyc)} element={<KycQueuePage />} />
          <Route path={under(ADMIN_PATHS.kycReview)} element={<KycReviewPage />} />
          <Route path={under(ADMIN_PATHS.withdrawals)} element={<WithdrawalsPage />} />
          <Route path={under(ADMIN_PATHS.screening)} element={<ScreeningPage />} />
          <Route path={under(ADMIN_PATHS.adjustments)} element={<AdjustmentsPage />} />
          <Route path={under(ADMIN_PATHS.operators)} element={<OperatorsPage />} />
          <Route path={under(ADMIN_PATHS.audit)} element={<AuditPage />} />
          <Route path={under(ADMIN_PATHS.settings)} element={<SettingsPage />} />
        </Route>
        <Route path="*" element={<Navigate to={ADMIN_PATHS.dashboard} replace />} />
      </Route>
    </Routes>
  );
}
