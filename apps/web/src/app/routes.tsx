import { redirect, type LazyRouteFunction, type RouteObject } from 'react-router';
import { DEFAULT_WALLET_COIN, pathTo, ROUTE_PATHS, type RouteName } from '../config/paths.ts';
import type { RouteHandle } from '../config/route-handle.ts';
import { HomeRoute } from './pages/home-route.tsx';
import { RootLayout } from './layout/root-layout.tsx';
import { BootFallback } from './layout/boot-fallback.tsx';
import { ShellScope } from './layout/shell-scope.tsx';
import { PageShell, shellPage, type PageModuleLoad } from '../components/page-shell.tsx';
import type { AdminRouteModule } from '../features/admin/admin-routes.ts';
import { ADMIN_PATHS } from '../features/admin/lib/admin-paths.ts';

/**
 * The route table. Each route's id is its name from `config/paths.ts`. The home page is
 * part of the first bundle; every other page loads with its route. The public and product pages
 * (about, USDE, earn, the card pages, trust, exchange, loan, download) paint without Ant Design and
 * load it in islands; the others are app-shell pages (`shell()`): they paint their frame and title
 * without Ant Design and load the page's module with Ant Design after the first paint.
 * `scripts/bundle-budget.mjs` reads this file to tell the groups apart.
 */
type LazyComponent = LazyRouteFunction<RouteObject>;

function page(name: RouteName, lazy: LazyComponent, handle?: RouteHandle, children?: RouteObject[]): RouteObject {
  return { id: name, path: ROUTE_PATHS[name], lazy, handle, children };
}

/**
 * An app-shell page: the route renders `PageShell` at once — the page's frame and title —
 * and the page's module (`load`, written like a route's `lazy`) with Ant Design's configuration and
 * texts replaces it when they arrive. The route's `lazy` only starts those downloads as the
 * navigation starts, in parallel with the account layout's chunk, instead of when the shell renders.
 */
function shell(name: RouteName, load: PageModuleLoad, handle?: RouteHandle): RouteObject {
  const shellOfPage = shellPage(load);
  return {
    id: name,
    path: ROUTE_PATHS[name],
    handle,
    element: <PageShell page={shellOfPage} />,
    lazy: () => {
      void shellOfPage.load().catch(() => undefined);
      return Promise.resolve({});
    },
  };
}

/** Forwarding routes render nothing; their loader redirects before any render. */
function Forwarding() {
  return null;
}

/** A route that only forwards, keeping query and hash. */
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
 * The back office at `/admin`: its own layout (no customer header, footer, identity or
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
            adminPage('chain'),
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
      // (components/antd-island.tsx).
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
        // Every other page is an app-shell page (components/page-shell.tsx): its frame paints at once,
        // and its module with Ant Design's configuration loads after the first paint.
        id: 'AntdScope',
        Component: ShellScope,
        children: [
          shell('TrustDetail', () =>
            import('../features/trust/pages/trust-detail-page.tsx').then((m) => ({ Component: m.TrustDetailPage })),
          ),
          shell('Test', () => import('./pages/test-page.tsx').then((m) => ({ Component: m.TestPage }))),
          shell('ProofOfLiabilities', () =>
            import('../features/liabilities/pages/liabilities-page.tsx').then((m) => ({
              Component: m.LiabilitiesPage,
            })),
          ),
          shell('Freeze', () =>
            import('../features/freeze/pages/freeze-page.tsx').then((m) => ({ Component: m.FreezePage })),
          ),
          shell('PrivacyPolicy', () =>
            import('../features/legal/pages/policy-page.tsx').then((m) => ({ Component: m.PrivacyPolicyPage })),
          ),
          shell('AmlKycPolicy', () =>
            import('../features/legal/pages/policy-page.tsx').then((m) => ({ Component: m.AmlKycPolicyPage })),
          ),
          shell('Identity', () =>
            import('../features/kyc/pages/identity-page.tsx').then((m) => ({ Component: m.IdentityPage })),
          ),
          shell('IdentityBasic', () =>
            import('../features/kyc/pages/basic-kyc-page.tsx').then((m) => ({ Component: m.BasicKycPage })),
          ),
          shell('IdentityInvestor', () =>
            import('../features/kyc/pages/investor-page.tsx').then((m) => ({ Component: m.InvestorPage })),
          ),
          shell('IdentityAml', () =>
            import('../features/kyc/pages/aml-page.tsx').then((m) => ({ Component: m.AmlPage })),
          ),
          shell('IdentityTax', () =>
            import('../features/kyc/pages/tax-page.tsx').then((m) => ({ Component: m.TaxPage })),
          ),
          shell('IdentityQualified', () =>
            import('../features/kyc/pages/qualified-page.tsx').then((m) => ({ Component: m.QualifiedPage })),
          ),
          shell('IdentityQualify', () =>
            import('../features/kyc/pages/qualified-page.tsx').then((m) => ({ Component: m.QualifiedPage })),
          ),
          shell('IdentityResidence', () =>
            import('../features/kyc/pages/residence-page.tsx').then((m) => ({ Component: m.ResidencePage })),
          ),
          // The dev outbox of mail and SMS; the server does not answer it in production.
          {
            id: 'DevMailbox',
            path: '/dev/mailbox',
            element: (
              <PageShell
                page={shellPage(() =>
                  import('../features/identity/pages/dev-mailbox-page.tsx').then((m) => ({
                    Component: m.DevMailboxPage,
                  })),
                )}
              />
            ),
          },
          {
            id: 'Wallet',
            path: ROUTE_PATHS.Wallet,
            children: [
              forwardIndex('Wallet', pathTo('DepositWallet', { coin: DEFAULT_WALLET_COIN })),
              forward('DepositWalletDefault', pathTo('DepositWallet', { coin: DEFAULT_WALLET_COIN })),
              forward('WithdrawWalletDefault', pathTo('WithdrawWallet', { coin: DEFAULT_WALLET_COIN })),
              shell('DepositWallet', () =>
                import('../features/wallet/pages/wallet-transfer-page.tsx').then((m) => ({
                  Component: m.WalletTransferPage,
                })),
              ),
              shell('WithdrawWallet', () =>
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
              shell(
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
                          shell('DepositHistory', () =>
                            import('../features/wallet/pages/wallet-history-page.tsx').then((m) => ({
                              Component: m.WalletHistoryPage,
                            })),
                          ),
                          shell('WithdrawHistory', () =>
                            import('../features/wallet/pages/wallet-history-page.tsx').then((m) => ({
                              Component: m.WalletHistoryPage,
                            })),
                          ),
                        ],
                      },
                      shell('SwapHistory', () =>
                        import('../features/exchange/pages/swap-history-page.tsx').then((m) => ({
                          Component: m.SwapHistoryPage,
                        })),
                      ),
                      shell('FundHistory', () =>
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
                          shell('LoanOrder', () =>
                            import('../features/loans/pages/loan-history-page.tsx').then((m) => ({
                              Component: m.LoanOrderPage,
                            })),
                          ),
                          shell('LoanRepayRecord', () =>
                            import('../features/loans/pages/loan-history-page.tsx').then((m) => ({
                              Component: m.LoanRepayRecordPage,
                            })),
                          ),
                          shell('LoanAdjustRecord', () =>
                            import('../features/loans/pages/loan-history-page.tsx').then((m) => ({
                              Component: m.LoanAdjustRecordPage,
                            })),
                          ),
                          shell('LoanLiquidationRecord', () =>
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
                      shell('AccountOverview', () =>
                        import('../features/wallet/pages/account-pages.tsx').then((m) => ({
                          Component: m.AccountOverviewPage,
                        })),
                      ),
                      shell('MainAccount', () =>
                        import('../features/wallet/pages/account-pages.tsx').then((m) => ({
                          Component: m.MainAccountPage,
                        })),
                      ),
                      shell('FundAccount', () =>
                        import('../features/funds/pages/fund-account-page.tsx').then((m) => ({
                          Component: m.FundAccountPage,
                        })),
                      ),
                      shell('FiscardAccount', () =>
                        import('../features/cards/pages/fiscard-account-page.tsx').then((m) => ({
                          Component: m.FiscardAccountPage,
                        })),
                      ),
                      shell('AccountStatement', () =>
                        import('../features/statements/pages/statement-page.tsx').then((m) => ({
                          Component: m.StatementPage,
                        })),
                      ),
                    ],
                  },
                  shell('Calendar', () =>
                    import('../features/calendar/pages/calendar-page.tsx').then((m) => ({
                      Component: m.CalendarPage,
                    })),
                  ),
                  {
                    id: 'Payment',
                    path: ROUTE_PATHS.Payment,
                    children: [
                      forwardIndex('Payment', ROUTE_PATHS.PaymentBank),
                      shell('PaymentBank', () =>
                        import('../features/payments/pages/payment-bank-page.tsx').then((m) => ({
                          Component: m.PaymentBankPage,
                        })),
                      ),
                      shell('AddBank', () =>
                        import('../features/payments/pages/add-bank-page.tsx').then((m) => ({
                          Component: m.AddBankPage,
                        })),
                      ),
                    ],
                  },
                  shell('Profile', () =>
                    import('../features/security/pages/profile-page.tsx').then((m) => ({ Component: m.ProfilePage })),
                  ),
                  shell('Security', () =>
                    import('../features/security/pages/security-page.tsx').then((m) => ({ Component: m.SecurityPage })),
                  ),
                  shell('DeleteAccount', () =>
                    import('../features/security/pages/delete-account-page.tsx').then((m) => ({
                      Component: m.DeleteAccountPage,
                    })),
                  ),
                  shell('EnableSMS', () =>
                    import('../features/security/pages/enable-sms-page.tsx').then((m) => ({
                      Component: m.EnableSmsPage,
                    })),
                  ),
                  shell('ResetPass', () =>
                    import('../features/security/pages/password-page.tsx').then((m) => ({
                      Component: m.ResetPassPage,
                    })),
                  ),
                  shell('SetPin', () =>
                    import('../features/security/pages/pin-page.tsx').then((m) => ({ Component: m.SetPinPage })),
                  ),
                  shell('GoogleAuthenticators', () =>
                    import('../features/security/pages/google-authenticator-page.tsx').then((m) => ({
                      Component: m.GoogleAuthenticatorPage,
                    })),
                  ),
                  shell('ApiKeys', () =>
                    import('../features/security/pages/api-keys-page.tsx').then((m) => ({ Component: m.ApiKeysPage })),
                  ),
                  shell('Address', () =>
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
      // Any other path goes home.
      { id: 'NotFound', path: '*', loader: () => redirect(ROUTE_PATHS.Home), Component: Forwarding },
    ],
  },
];
