/** The back office's pages, all under `/admin` with their own layout. */
export const ADMIN_PATHS = {
  login: '/admin/login',
  dashboard: '/admin',
  users: '/admin/users',
  user: '/admin/users/:userId',
  kyc: '/admin/kyc',
  kycReview: '/admin/kyc/:userId',
  deposits: '/admin/deposits',
  withdrawals: '/admin/withdrawals',
  wires: '/admin/wires',
  cards: '/admin/cards',
  proApplications: '/admin/pro-applications',
  trusts: '/admin/trusts',
  screening: '/admin/screening',
  chain: '/admin/chain',
  adjustments: '/admin/adjustments',
  broadcasts: '/admin/broadcasts',
  banners: '/admin/banners',
  support: '/admin/support',
  operators: '/admin/operators',
  audit: '/admin/audit',
  settings: '/admin/settings',
} as const;

/** A user's page. */
export function adminUserPath(userId: string): string {
  return `/admin/users/${encodeURIComponent(userId)}`;
}

/** A review of one user's queued step (`basic` when absent). */
export function adminKycReviewPath(userId: string, step: string): string {
  return `/admin/kyc/${encodeURIComponent(userId)}?step=${encodeURIComponent(step)}`;
}

/** Why the sign-in page is shown: the session ended after the idle time, or it was never there. */
export const LOGIN_REASON_PARAM = 'reason';
export const LOGIN_REASON_EXPIRED = 'expired';
