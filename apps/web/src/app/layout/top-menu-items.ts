import type { StaticRouteName } from '../../config/paths.ts';

/** The product menu of the header: Fiscard is shown as "Card". */
export const TOP_MENU_ITEMS: readonly { id: string; route: StaticRouteName }[] = [
  { id: 'earn', route: 'Earn' },
  { id: 'trust', route: 'Trust' },
  { id: 'exchange', route: 'Exchange' },
  { id: 'card', route: 'Fiscard' },
  { id: 'usde', route: 'USDE' },
  { id: 'loan', route: 'Loan' },
];

/** The user menu: Security, Profile, Payment, Address — all inside the product. */
export const USER_MENU_ITEMS: readonly { id: string; route: StaticRouteName }[] = [
  { id: 'overview', route: 'AccountOverview' },
  { id: 'orders', route: 'Order' },
  { id: 'security', route: 'Security' },
  { id: 'profile', route: 'Profile' },
  { id: 'payment', route: 'Payment' },
  { id: 'address', route: 'Address' },
];
