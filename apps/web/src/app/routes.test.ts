// @vitest-environment jsdom
import { matchRoutes, type RouteObject } from 'react-router';
import { describe, expect, it } from 'vitest';
import { readRouteHandle } from '../config/route-handle.ts';
import { routes } from './routes.tsx';

/**
 * The route table against the product's route list: every route exists under its name, every "redirects to" lands
 * where it should (following chains), and any other path goes home. Redirects are checked by running
 * the matched loaders, as the router does, without loading the pages' code.
 */

const MAX_REDIRECTS = 5;

function leafOf(pathname: string) {
  const matches = matchRoutes(routes, pathname);
  return { matches: matches ?? [], leaf: matches?.at(-1)?.route as RouteObject | undefined };
}

/** Follows loader redirects from `pathname` and returns the final pathname. */
async function land(pathname: string): Promise<string> {
  let current = pathname;
  for (let hop = 0; hop < MAX_REDIRECTS; hop += 1) {
    const { matches } = leafOf(current);
    let redirected = false;
    for (const match of matches) {
      const loader = match.route.loader;
      if (typeof loader !== 'function') continue;
      const request = new Request(new URL(current, 'http://meridian.test'));
      const result: unknown = await loader({
        request,
        params: match.params,
        context: undefined,
        unstable_pattern: '',
      } as never);
      if (result instanceof Response && result.status >= 300 && result.status < 400) {
        current = result.headers.get('Location') ?? current;
        redirected = true;
        break;
      }
    }
    if (!redirected) return current;
  }
  throw new Error(`Too many redirects from ${pathname}`);
}

const PAGES: [path: string, name: string][] = [
  ['/', 'Home'],
  ['/about', 'About'],
  ['/proof-of-liabilities', 'ProofOfLiabilities'],
  ['/freeze/abc', 'Freeze'],
  ['/usde', 'USDE'],
  ['/product/earn', 'Earn'],
  ['/product/fiscard', 'Fiscard'],
  ['/product/fiscard/physical', 'FiscardPhysical'],
  ['/product/fiscard/virtual', 'FiscardVirtual'],
  ['/product/fiscard/business', 'FiscardBusiness'],
  ['/product/fiscard/api', 'FiscardApi'],
  ['/product/trust', 'Trust'],
  ['/exchange', 'Exchange'],
  ['/account/wallet/deposit/BTC', 'DepositWallet'],
  ['/account/wallet/withdraw/USDT', 'WithdrawWallet'],
  ['/my/order/wallet/deposit', 'DepositHistory'],
  ['/my/order/wallet/withdraw', 'WithdrawHistory'],
  ['/my/order/swap', 'SwapHistory'],
  ['/my/order/fund', 'FundHistory'],
  ['/my/order/loan/history', 'LoanOrder'],
  ['/my/order/loan/repay', 'LoanRepayRecord'],
  ['/my/order/loan/adjust', 'LoanAdjustRecord'],
  ['/my/order/loan/liquidation', 'LoanLiquidationRecord'],
  ['/my/account/overview', 'AccountOverview'],
  ['/my/account/main', 'MainAccount'],
  ['/my/account/fund', 'FundAccount'],
  ['/my/account/fiscard', 'FiscardAccount'],
  ['/my/account/statement', 'AccountStatement'],
  ['/my/calendar', 'Calendar'],
  ['/my/payment/bank', 'PaymentBank'],
  ['/my/payment/bank-add', 'AddBank'],
  ['/my/profile', 'Profile'],
  ['/my/security', 'Security'],
  ['/my/security/account/delete', 'DeleteAccount'],
  ['/my/security/enable-sms', 'EnableSMS'],
  ['/my/security/password', 'ResetPass'],
  ['/my/security/pin', 'SetPin'],
  ['/my/security/google-authenticator', 'GoogleAuthenticators'],
  ['/my/security/api-keys', 'ApiKeys'],
  ['/my/address', 'Address'],
  ['/messages', 'Messages'],
  ['/loan', 'Loan'],
  ['/test', 'Test'],
];

const REDIRECTS: [from: string, to: string][] = [
  ['/account/wallet', '/account/wallet/deposit/USDE'],
  ['/account/wallet/deposit', '/account/wallet/deposit/USDE'],
  ['/account/wallet/withdraw', '/account/wallet/withdraw/USDE'],
  ['/my', '/my/security'],
  ['/my/order', '/my/order/wallet/deposit'],
  ['/my/order/wallet', '/my/order/wallet/deposit'],
  ['/my/order/loan', '/my/order/loan/history'],
  ['/my/account', '/my/account/overview'],
  ['/my/payment', '/my/payment/bank'],
  ['/nowhere', '/'],
  ['/product', '/'],
  ['/my/unknown/page', '/'],
  ['/account', '/'],
];

describe('route table', () => {
  it.each(PAGES)('%s is the %s route and does not redirect', async (path, name) => {
    expect(leafOf(path).leaf?.id).toBe(name);
    expect(await land(path)).toBe(path);
  });

  it.each(REDIRECTS)('%s redirects to %s', async (from, to) => {
    expect(await land(from)).toBe(to);
  });

  it('keeps the query and hash through a redirect', async () => {
    expect(await land('/my/order?coin=BTC#list')).toBe('/my/order/wallet/deposit?coin=BTC#list');
  });

  it('fixes the header exactly on the public and product pages and /messages', () => {
    const fixed = ['/', '/about', '/usde', '/product/earn', '/product/fiscard', '/product/trust', '/messages'];
    // The card marketing screens are pages of /product/fiscard and share its fixed header.
    fixed.push(
      '/product/fiscard/physical',
      '/product/fiscard/virtual',
      '/product/fiscard/business',
      '/product/fiscard/api',
    );
    for (const [path] of PAGES) {
      const isFixed = leafOf(path).matches.some((match) => readRouteHandle(match.route.handle).fixedHeader === true);
      expect(isFixed, path).toBe(fixed.includes(path));
    }
  });

  it('hides the footer on every /my route and nowhere else', () => {
    for (const [path] of PAGES) {
      const isHidden = leafOf(path).matches.some((match) => readRouteHandle(match.route.handle).hideFooter === true);
      expect(isHidden, path).toBe(path.startsWith('/my'));
    }
  });
});

describe('the back office', () => {
  it.each([
    ['/admin', 'Admin:dashboard'],
    ['/admin/users/u-1', 'Admin:user'],
    ['/admin/kyc/u-1', 'Admin:kycReview'],
    ['/admin/adjustments', 'Admin:adjustments'],
    ['/admin/deposits', 'Admin:deposits'],
    ['/admin/broadcasts', 'Admin:broadcasts'],
    ['/admin/banners', 'Admin:banners'],
  ])('%s renders %s in the operator layout, outside the customer shell', (pathname, id) => {
    const ids = leafOf(pathname).matches.map((match) => match.route.id);
    expect(ids).toEqual(['Admin', 'AdminRoot', 'AdminLayout', id]);
  });

  it('renders the sign-in page without the operator layout', () => {
    expect(leafOf('/admin/login').matches.map((match) => match.route.id)).toEqual([
      'Admin',
      'AdminRoot',
      'Admin:login',
    ]);
  });

  it('sends any other back-office address to the dashboard', async () => {
    expect(await land('/admin/anything')).toBe('/admin');
  });
});
