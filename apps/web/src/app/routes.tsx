import { redirect, type LazyRouteFunction, type RouteObject } from 'react-router';
import { DEFAULT_WALLET_COIN, pathTo, ROUTE_PATHS, type RouteName } from '../config/paths.ts';
import type { RouteHandle } from '../config/route-handle.ts';
import { HomeRoute } from './pages/home-route.tsx';
import { RootLayout } from './layout/root-layout.tsx';
import { BootFallback } from './layout/boot-fallback.tsx';
import type { AdminRouteModule } from '../features/admin/admin-routes.ts';
import { ADMIN_PATHS } from '../features/admin/lib/admin-paths.ts';

/**
 * The route table of spec §2. Each route's id is its name from `config/paths.ts`. The home page is
 * part of the first bundle; every other page loads with its route. The public and product pages
 * (about, USDE, earn, the card pages, trust, exchange, loan, download) paint without Ant Design and
 * load it in islands; the others render in the Ant Design scope, which loads with the first of them.
 * `scripts/bundle-budget.mjs` reads this file to tell the groups apart.
 */
type LazyComponent = LazyRouteFunction<RouteObject>;

function page(name: RouteName, lazy: LazyComponent, handle?: RouteHandle, children?: RouteObject[]): RouteObject {
  return { id: name, path: ROUTE_PATHS[name], lazy, handle, children };
}

/** Forwarding routes render nothing; their loader redirects before any render. */
function Forwarding() {
  return null;
}

/** A route that only forwards (spec §2 "redirects to"), keeping query and hash. */
function forward(name: RouteName, to: string): RouteObject {
  return {
    id: name,
    path: ROUTE_PATHS[name],
    loader: ({ request }) => redirect(withSearch(to, request.url)),
    Component: Forwarding,
  };
}

/** The index child of a parent route that forwards to one of its children. */
function forwardIndex(parent: RouteName, to: string): RouteObject {
  return {
    id: `${parent}Index`,
    index: true,
    loader: ({ request }) => redirect(withSearch(to, request.url)),
    Component: Forwarding,
  };
}

function withSearch(to: string, requestUrl: string): string {
  const { search, hash } = new URL(requestUrl);
  return `${to}${search}${hash}`;
}

const fixed: RouteHandle = { fixedHeader: true };

/** A module of the back office, through its one lazily loaded table (`features/admin/admin-routes.ts`). */
function adminModule(name: AdminRouteModule): LazyComponent {
  return () => import('../features/admin/admin-routes.ts').then((m) => m.adminRouteModules[name]());
}

/** A back-office page under the operator layout. */
function adminPage(name: Exclude<AdminRouteModule, 'root' | 'layout' | 'login' | 'dashboard'>): RouteObject {
  return { id: `Admin:${name}`, path: ADMIN_PATHS[name], lazy: adminModule(name) };
}

/**
 * The back office at `/admin` (issue 16): its own layout (no customer header, footer, identity or
 * notices mounts) and its own chunks; the customer entry holds one dynamic import for all of it.
 * Ant Design's configuration and locale are the app's. Any other `/admin` address opens the dashboard.
 */
const adminRoutes: RouteObject = {
  id: 'Admin',
  path: ADMIN_PATHS.dashboard,
  HydrateFallback: BootFallback,
  lazy: async () => {
    const [scope] = await Promise.all([
      import('./layout/antd-scope.tsx'),
      import('./antd/antd-config.tsx').then((config) => config.prepareAntd()),
    ]);
    return { Component: scope.AntdScope };
  },
  children: [
    {
      id: 'AdminRoot',
      lazy: adminModule('root'),
      children: [
        { id: 'Admin:login', path: ADMIN_PATHS.login, lazy: adminModule('login') },
        {
          id: 'AdminLayout',
          lazy: adminModule('layout'),
          children: [
            { id: 'Admin:dashboard', index: true, lazy: adminModule('dashboard') },
            adminPage('users'),
            adminPage('user'),
            adminPage('kyc'),
            adminPage('kycReview'),
            adminPage('deposits'),
            adminPage('withdrawals'),
            adminPage('wires'),
            adminPage('cards'),
            adminPage('support'),
            adminPage('proApplications'),
            adminPage('trusts'),
            adminPage('screening'),
            adminPage('adjustments'),
            adminPage('broadcasts'),
            adminPage('banners'),
            adminPage('operators'),
            adminPage('audit'),
            adminPage('settings'),
          ],
        },
      ],
    },
    { id: 'AdminNotFound', path: '*', loader: () => redirect(ADMIN_PATHS.dashboard), Component: Forwarding },
  ],
};

export const routes: RouteObject[] = [
  adminRoutes,
  {
    id: 'Root',
    Component: RootLayout,
    HydrateFallback: BootFallback,
    children: [
      { id: 'Home', index: true, Component: HomeRoute, handle: fixed },
      // The public and product pages render their shell and texts with plain React and CSS, and load
      // Ant Design only for their forms and lists, as islands after the first paint
      // (components/antd-island.tsx; issue 20 "web performance").
      page(
        'About',
        () => import('../features/marketing/pages/about-page.tsx').then((m) => ({ Component: m.AboutPage })),
        fixed,
      ),
      page(
        'USDE',
        () => import('../features/marketing/pages/usde-page.tsx').then((m) => ({ Component: m.UsdePage })),
        fixed,
      ),
      page(
        'Earn',
        () => import('../features/funds/pages/earn-page.tsx').then((m) => ({ Component: m.EarnPage })),
        fixed,
      ),
      page(
        'Fiscard',
        () => import('../features/cards/pages/fiscard-page.tsx').then((m) => ({ Component: m.FiscardPage })),
        fixed,
      ),
      page(
        'FiscardPhysical',
        () =>
          import('../features/cards/pages/fiscard-topic-pages.tsx').then((m) => ({
            Component: m.FiscardPhysicalPage,
          })),
        fixed,
      ),
      page(
        'FiscardVirtual',
        () =>
          import('../features/cards/pages/fiscard-topic-pages.tsx').then((m) => ({
            Component: m.FiscardVirtualPage,
          })),
        fixed,
      ),
      page(
        'FiscardBusiness',
        () =>
          import('../features/cards/pages/fiscard-topic-pages.tsx').then((m) => ({
            Component: m.FiscardBusinessPage,
          })),
        fixed,
      ),
      page(
        'FiscardApi',
        () => import('../features/cards/pages/fiscard-topic-pages.tsx').then((m) => ({ Component: m.FiscardApiPage })),
        fixed,
      ),
      page(
        'Trust',
        () => import('../features/trust/pages/trust-page.tsx').then((m) => ({ Component: m.TrustPage })),
        fixed,
      ),
      page('Exchange', () =>
        import('../features/exchange/pages/exchange-page.tsx').then((m) => ({ Component: m.ExchangePage })),
      ),
      page('Loan', () => import('../features/loans/pages/loan-page.tsx').then((m) => ({ Component: m.LoanPage }))),
      page('Download', () =>
        import('../features/download/pages/download-page.tsx').then((m) => ({ Component: m.DownloadPage })),
      ),
      {
        // Every other page renders inside Ant Design's ConfigProvider, loaded with the first of them.
        id: 'AntdScope',
        lazy: async () => {
          const [scope] = await Promise.all([
            import('./layout/antd-scope.tsx'),
            import('./antd/antd-config.tsx').then((config) => config.prepareAntd()),
          ]);
          return { Component: scope.AntdScope };
        },
        children: [
          page('TrustDetail', () =>
            import('../features/trust/pages/trust-detail-page.tsx').then((m) => ({ Component: m.TrustDetailPage })),
          ),
          page('Test', () => import('./pages/test-page.tsx').then((m) => ({ Component: m.TestPage }))),
          page('ProofOfLiabilities', () =>
            import('../features/liabilities/pages/liabilities-page.tsx').then((m) => ({
              Component: m.LiabilitiesPage,
            })),
          ),
          page('Freeze', () =>
            import('../features/freeze/pages/freeze-page.tsx').then((m) => ({ Component: m.FreezePage })),
          ),
          page('PrivacyPolicy', () =>
            import('../features/legal/pages/policy-page.tsx').then((m) => ({ Component: m.PrivacyPolicyPage })),
          ),
          page('AmlKycPolicy', () =>
            import('../features/legal/pages/policy-page.tsx').then((m) => ({ Component: m.AmlKycPolicyPage })),
          ),
          page('Identity', () =>
            import('../features/kyc/pages/identity-page.tsx').then((m) => ({ Component: m.IdentityPage })),
          ),
          page('IdentityBasic', () =>
            import('../features/kyc/pages/basic-kyc-page.tsx').then((m) => ({ Component: m.BasicKycPage })),
          ),
          page('IdentityInvestor', () =>
            import('../features/kyc/pages/investor-page.tsx').then((m) => ({ Component: m.InvestorPage })),
          ),
          page('IdentityAml', () =>
            import('../features/kyc/pages/aml-page.tsx').then((m) => ({ Component: m.AmlPage })),
          ),
          page('IdentityTax', () =>
            import('../features/kyc/pages/tax-page.tsx').then((m) => ({ Component: m.TaxPage })),
          ),
          page('IdentityQualified', () =>
            import('../features/kyc/pages/qualified-page.tsx').then((m) => ({ Component: m.QualifiedPage })),
          ),
          page('IdentityQualify', () =>
            import('../features/kyc/pages/qualified-page.tsx').then((m) => ({ Component: m.QualifiedPage })),
          ),
          page('IdentityResidence', () =>
            import('../features/kyc/pages/residence-page.tsx').then((m) => ({ Component: m.ResidencePage })),
          ),
          // The dev outbox of mail and SMS (issue 3); the server does not answer it in production.
          {
            id: 'DevMailbox',
            path: '/dev/mailbox',
            lazy: () =>
              import('../features/identity/pages/dev-mailbox-page.tsx').then((m) => ({ Component: m.DevMailboxPage })),
          },
          {
            id: 'Wallet',
            path: ROUTE_PATHS.Wallet,
            children: [
              forwardIndex('Wallet', pathTo('DepositWallet', { coin: DEFAULT_WALLET_COIN })),
              forward('DepositWalletDefault', pathTo('DepositWallet', { coin: DEFAULT_WALLET_COIN })),
              forward('WithdrawWalletDefault', pathTo('WithdrawWallet', { coin: DEFAULT_WALLET_COIN })),
              page('DepositWallet', () =>
                import('../features/wallet/pages/wallet-transfer-page.tsx').then((m) => ({
                  Component: m.WalletTransferPage,
                })),
              ),
              page('WithdrawWallet', () =>
                import('../features/wallet/pages/wallet-transfer-page.tsx').then((m) => ({
                  Component: m.WalletTransferPage,
                })),
              ),
            ],
          },
          {
            // The account area: side menu (Account, Order groups, statement, messages).
            id: 'AccountArea',
            lazy: () => import('./layout/account-layout.tsx').then((m) => ({ Component: m.AccountLayout })),
            children: [
              page(
                'Messages',
                () =>
                  import('../features/notices/pages/messages-page.tsx').then((m) => ({ Component: m.MessagesPage })),
                fixed,
              ),
              {
                id: 'My',
                path: ROUTE_PATHS.My,
                handle: { hideFooter: true } satisfies RouteHandle,
                children: [
                  forwardIndex('My', ROUTE_PATHS.Security),
                  {
                    id: 'Order',
                    path: ROUTE_PATHS.Order,
                    children: [
                      forwardIndex('Order', ROUTE_PATHS.WalletHistory),
                      {
                        id: 'WalletHistory',
                        path: ROUTE_PATHS.WalletHistory,
                        handle: { tabs: ['DepositHistory', 'WithdrawHistory'] } satisfies RouteHandle,
                        children: [
                          forwardIndex('WalletHistory', ROUTE_PATHS.DepositHistory),
                          page('DepositHistory', () =>
                            import('../features/wallet/pages/wallet-history-page.tsx').then((m) => ({
                              Component: m.WalletHistoryPage,
                            })),
                          ),
                          page('WithdrawHistory', () =>
                            import('../features/wallet/pages/wallet-history-page.tsx').then((m) => ({
                              Component: m.WalletHistoryPage,
                            })),
                          ),
                        ],
                      },
                      page('SwapHistory', () =>
                        import('../features/exchange/pages/swap-history-page.tsx').then((m) => ({
                          Component: m.SwapHistoryPage,
                        })),
                      ),
                      page('FundHistory', () =>
                        import('../features/funds/pages/fund-history-page.tsx').then((m) => ({
                          Component: m.FundHistoryPage,
                        })),
                      ),
                      {
                        id: 'LoanHistory',
                        path: ROUTE_PATHS.LoanHistory,
                        handle: {
                          tabs: ['LoanOrder', 'LoanRepayRecord', 'LoanAdjustRecord', 'LoanLiquidationRecord'],
                        } satisfies RouteHandle,
                        children: [
                          forwardIndex('LoanHistory', ROUTE_PATHS.LoanOrder),
                          page('LoanOrder', () =>
                            import('../features/loans/pages/loan-history-page.tsx').then((m) => ({
                              Component: m.LoanOrderPage,
                            })),
                          ),
                          page('LoanRepayRecord', () =>
                            import('../features/loans/pages/loan-history-page.tsx').then((m) => ({
                              Component: m.LoanRepayRecordPage,
                            })),
                          ),
                          page('LoanAdjustRecord', () =>
                            import('../features/loans/pages/loan-history-page.tsx').then((m) => ({
                              Component: m.LoanAdjustRecordPage,
                            })),
                          ),
                          page('LoanLiquidationRecord', () =>
                            import('../features/loans/pages/loan-history-page.tsx').then((m) => ({
                              Component: m.LoanLiquidationRecordPage,
                            })),
                          ),
                        ],
                      },
                    ],
                  },
                  {
                    id: 'Account',
                    path: ROUTE_PATHS.Account,
                    children: [
                      forwardIndex('Account', ROUTE_PATHS.AccountOverview),
                      page('AccountOverview', () =>
                        import('../features/wallet/pages/account-pages.tsx').then((m) => ({
                          Component: m.AccountOverviewPage,
                        })),
                      ),
                      page('MainAccount', () =>
                        import('../features/wallet/pages/account-pages.tsx').then((m) => ({
                          Component: m.MainAccountPage,
                        })),
                      ),
                      page('FundAccount', () =>
                        import('../features/funds/pages/fund-account-page.tsx').then((m) => ({
                          Component: m.FundAccountPage,
                        })),
                      ),
                      page('FiscardAccount', () =>
                        import('../features/cards/pages/fiscard-account-page.tsx').then((m) => ({
                          Component: m.FiscardAccountPage,
                        })),
                      ),
                      page('AccountStatement', () =>
                        import('../features/statements/pages/statement-page.tsx').then((m) => ({
                          Component: m.StatementPage,
                        })),
                      ),
                    ],
                  },
                  page('Calendar', () =>
                    import('../features/calendar/pages/calendar-page.tsx').then((m) => ({
                      Component: m.CalendarPage,
                    })),
                  ),
                  {
                    id: 'Payment',
                    path: ROUTE_PATHS.Payment,
                    children: [
                      forwardIndex('Payment', ROUTE_PATHS.PaymentBank),
                      page('PaymentBank', () =>
                        import('../features/payments/pages/payment-bank-page.tsx').then((m) => ({
                          Component: m.PaymentBankPage,
                        })),
                      ),
                      page('AddBank', () =>
                        import('../features/payments/pages/add-bank-page.tsx').then((m) => ({
                          Component: m.AddBankPage,
                        })),
                      ),
                    ],
                  },
                  page('Profile', () =>
                    import('../features/security/pages/profile-page.tsx').then((m) => ({ Component: m.ProfilePage })),
                  ),
                  page('Security', () =>
                    import('../features/security/pages/security-page.tsx').then((m) => ({ Component: m.SecurityPage })),
                  ),
                  page('DeleteAccount', () =>
                    import('../features/security/pages/delete-account-page.tsx').then((m) => ({
                      Component: m.DeleteAccountPage,
                    })),
                  ),
                  page('EnableSMS', () =>
                    import('../features/security/pages/enable-sms-page.tsx').then((m) => ({
                      Component: m.EnableSmsPage,
                    })),
                  ),
                  page('ResetPass', () =>
                    import('../features/security/pages/password-page.tsx').then((m) => ({
                      Component: m.ResetPassPage,
                    })),
                  ),
                  page('SetPin', () =>
                    import('../features/security/pages/pin-page.tsx').then((m) => ({ Component: m.SetPinPage })),
                  ),
                  page('GoogleAuthenticators', () =>
                    import('../features/security/pages/google-authenticator-page.tsx').then((m) => ({
                      Component: m.GoogleAuthenticatorPage,
                    })),
                  ),
                  page('ApiKeys', () =>
                    import('../features/security/pages/api-keys-page.tsx').then((m) => ({ Component: m.ApiKeysPage })),
                  ),
                  page('Address', () =>
                    import('../features/wallet/pages/address-book-page.tsx').then((m) => ({
                      Component: m.AddressBookPage,
                    })),
                  ),
                ],
              },
            ],
          },
        ],
      },
      // Any other path goes home (spec §2).
      { id: 'NotFound', path: '*', loader: () => redirect(ROUTE_PATHS.Home), Component: Forwarding },
    ],
  },
];
