import { adminEndpoints } from '@meridian/contracts/admin';
import {
  backOfficeAccessEndpoints,
  backOfficeAdjustmentEndpoints,
  backOfficeBannerEndpoints,
  backOfficeBroadcastEndpoints,
  backOfficeDepositEndpoints,
  backOfficeUserEndpoints,
} from '@meridian/contracts/back-office';
import { opsCardEndpoints } from '@meridian/contracts/card-ops';
import { chainOpsEndpoints } from '@meridian/contracts/chain-ops';
import { opsCorporateEndpoints } from '@meridian/contracts/corporate';
import type { Endpoint } from '@meridian/contracts/endpoint';
import { fundWireEndpoints } from '@meridian/contracts/fund-wires';
import { opsKycEndpoints } from '@meridian/contracts/kyc';
import { mayCall, type OperatorRole } from '@meridian/contracts/operators';
import { opsTrustEndpoints } from '@meridian/contracts/trust';
import { opsSupportEndpoints } from '@meridian/contracts/support';
import { opsWalletEndpoints } from '@meridian/contracts/wallet';
import { ADMIN_PATHS } from './admin-paths.ts';

/** One entry of the back office's left menu: its page and the call that page makes first. */
export interface AdminMenuItem {
  key:
    | 'dashboard'
    | 'users'
    | 'kyc'
    | 'deposits'
    | 'withdrawals'
    | 'wires'
    | 'trusts'
    | 'cards'
    | 'support'
    | 'proApplications'
    | 'screening'
    | 'chain'
    | 'adjustments'
    | 'broadcasts'
    | 'banners'
    | 'operators'
    | 'audit'
    | 'settings';
  path: string;
  /** The page's list call: the entry shows only when the role may make it (`mayCall`). */
  endpoint: Endpoint;
}

/** Every page of the back office, in menu order, each with the descriptor its page calls. */
export const ADMIN_MENU: readonly AdminMenuItem[] = [
  { key: 'dashboard', path: ADMIN_PATHS.dashboard, endpoint: backOfficeUserEndpoints.dashboard },
  { key: 'users', path: ADMIN_PATHS.users, endpoint: backOfficeUserEndpoints.searchUsers },
  { key: 'kyc', path: ADMIN_PATHS.kyc, endpoint: opsKycEndpoints.list },
  { key: 'deposits', path: ADMIN_PATHS.deposits, endpoint: backOfficeDepositEndpoints.listDeposits },
  { key: 'withdrawals', path: ADMIN_PATHS.withdrawals, endpoint: adminEndpoints.listWithdrawals },
  { key: 'wires', path: ADMIN_PATHS.wires, endpoint: fundWireEndpoints.listWires },
  { key: 'trusts', path: ADMIN_PATHS.trusts, endpoint: opsTrustEndpoints.listTrusts },
  { key: 'cards', path: ADMIN_PATHS.cards, endpoint: opsCardEndpoints.listCards },
  { key: 'support', path: ADMIN_PATHS.support, endpoint: opsSupportEndpoints.listSupportRequests },
  {
    key: 'proApplications',
    path: ADMIN_PATHS.proApplications,
    endpoint: opsCorporateEndpoints.listProApplications,
  },
  { key: 'screening', path: ADMIN_PATHS.screening, endpoint: opsWalletEndpoints.listScreeningAlerts },
  { key: 'chain', path: ADMIN_PATHS.chain, endpoint: chainOpsEndpoints.getState },
  { key: 'adjustments', path: ADMIN_PATHS.adjustments, endpoint: backOfficeAdjustmentEndpoints.listAdjustments },
  { key: 'broadcasts', path: ADMIN_PATHS.broadcasts, endpoint: backOfficeBroadcastEndpoints.listBroadcasts },
  { key: 'banners', path: ADMIN_PATHS.banners, endpoint: backOfficeBannerEndpoints.listBanners },
  { key: 'operators', path: ADMIN_PATHS.operators, endpoint: backOfficeAccessEndpoints.listOperators },
  { key: 'audit', path: ADMIN_PATHS.audit, endpoint: backOfficeAccessEndpoints.listAudit },
  { key: 'settings', path: ADMIN_PATHS.settings, endpoint: opsWalletEndpoints.listWithdrawalLimits },
];

/** The menu entries `role` may open (the server refuses the others anyway). */
export function menuItemsFor(role: OperatorRole): AdminMenuItem[] {
  return ADMIN_MENU.filter((item) => mayCall(role, item.endpoint));
}

/** The menu entry whose page is shown at `pathname` (the longest matching path), for the selected key. */
export function menuKeyOf(pathname: string): AdminMenuItem['key'] | undefined {
  let best: AdminMenuItem | undefined;
  for (const item of ADMIN_MENU) {
    const isMatch = pathname === item.path || pathname.startsWith(`${item.path}/`);
    if (isMatch && (!best || item.path.length > best.path.length)) best = item;
  }
  return best?.key;
}
