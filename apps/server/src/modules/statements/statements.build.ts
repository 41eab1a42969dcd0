import type { Statement, StatementAccount, StatementSection } from '@meridian/contracts/statements';
import { type AssetCode, toDecimalString } from '@meridian/contracts/money';
import { PriceDecimal } from '../../platform/prices/types.ts';
import type { StatementActivity, StatementLedgerAccount } from '../ledger/ledger.service.ts';
import type { AccountType } from '../ledger/ledger.types.ts';

/** The statement section of a ledger account type (the account overview's sections). */
export function sectionOf(type: AccountType): StatementSection {
  switch (type) {
    case 'USER_AVAILABLE':
    case 'USER_FROZEN':
      return 'main';
    case 'USER_FUND':
    case 'USER_FUND_FIXED':
    case 'USER_FUND_FROZEN':
      return 'fund';
    case 'USER_LOAN_COLLATERAL':
      return 'loan';
    case 'TRUST_HOLDING':
      return 'trust';
    default:
      return 'card';
  }
}

const SECTION_ORDER: readonly StatementSection[] = ['main', 'fund', 'loan', 'card', 'trust'];
const STABLECOINS: readonly string[] = ['USDT', 'USDC', 'USDE'];

/** A card currency's rate from an instant on (`sinceAt` null: since before any recorded change). */
export interface CardRateSince {
  sinceAt: Date | null;
  usdPerUnit: PriceDecimal;
}

/**
 * USD per unit of an asset on a UTC day, by the account overview's rule (`price` in `wallet.internal.ts`,
 * docs/statements.md "Prices") applied to that day: USD is 1; EURE (EUR e-money, 1 EURE = 1 EUR)
 * and the card currencies (EUR, GBP, JPY) take the cards' rate in force at the close of that day
 * (`cardRates`, from the rate table's applied changes); every other asset takes the stored daily
 * close of that day (`price_days`) or, when that day has no bar, the last close before it; a
 * stablecoin (USDT, USDC, USDE) with no bar is valued at its 1 USD peg. Null: no price exists for
 * that day, which the statement says explicitly (`unvaluedAssets`).
 */
export class DailyPrices {
  constructor(
    private readonly closes: ReadonlyMap<string, readonly { day: string; closeUsd: PriceDecimal }[]>,
    private readonly cardRates: ReadonlyMap<string, readonly CardRateSince[]>,
  ) {}

  /** USD per one unit of `asset` at the close of `day` (`YYYY-MM-DD`); null when unknown. */
  usdPerUnit(asset: string, day: string): PriceDecimal | null {
    if (asset === 'USD') return new PriceDecimal(1);
    if (asset === 'EURE') return this.cardRate('EUR', day);
    if (this.cardRates.has(asset)) return this.cardRate(asset, day);
    let found: PriceDecimal | null = null;
    for (const bar of this.closes.get(asset) ?? []) {
      if (bar.day > day) break;
      found = bar.closeUsd;
    }
    if (found) return found;
    return STABLECOINS.includes(asset) ? new PriceDecimal(1) : null;
  }

  /** The card rate of `currency` in force at the end of `day` (the last change before the next day's 00:00 UTC). */
  private cardRate(currency: string, day: string): PriceDecimal | null {
    const dayEndMs = Date.parse(`${day}T00:00:00Z`) + 86_400_000;
    let found: PriceDecimal | null = null;
    for (const rate of this.cardRates.get(currency) ?? []) {
      if (rate.sinceAt !== null && rate.sinceAt.getTime() >= dayEndMs) break;
      found = rate.usdPerUnit;
    }
    return found;
  }

  /**
   * The USD value (2 decimals, rounded down like the account overview's: a value of what the user
   * holds never overstates it) of `minor` units of `asset` at the close of `day`; null when no price.
   */
  usdValue(minor: bigint, asset: AssetCode, day: string): string | null {
    const price = this.usdPerUnit(asset, day);
    if (price === null) return null;
    return new PriceDecimal(toDecimalString(minor, asset)).times(price).toFixed(2, PriceDecimal.ROUND_DOWN);
  }
}

/** A ledger account with its activity and the label of its owner (card, trust). */
export interface AccountWithActivity {
  account: StatementLedgerAccount;
  activity: StatementActivity;
  /** The card's masked number or the trust's name; null for the user's own accounts. */
  ownerLabel: string | null;
}

/**
 * Assemble a statement from each account's activity: opening, movements with their running
 * balance, closing = opening + the movements, valued in USD at the close of each movement's day and
 * of `toDay`. Accounts with no balance and no movement in the range are left out. Accounts are
 * ordered by section (main, fund, loan, card, trust), then as given. A closing balance with no price
 * is listed in `unvaluedAssets` (never silently left out of the total); `entryFees` and `loans` are
 * filled by the caller.
 */
export function assembleStatement(
  fromDay: string,
  toDay: string,
  generatedAt: Date,
  items: readonly AccountWithActivity[],
  prices: DailyPrices,
): Statement {
  const accounts: StatementAccount[] = [];
  const unvalued = new Set<string>();
  let totalUsd = new PriceDecimal(0);
  const ordered = [...items].sort(
    (a, b) => SECTION_ORDER.indexOf(sectionOf(a.account.type)) - SECTION_ORDER.indexOf(sectionOf(b.account.type)),
  );
  for (const { account, activity, ownerLabel } of ordered) {
    const asset = account.asset;
    if (activity.openingMinor === 0n && activity.postings.length === 0) continue;
    let balance = activity.openingMinor;
    const movements = activity.postings.map((posting) => {
      balance += posting.amountMinor;
      const at = posting.createdAt.toISOString();
      return {
        at,
        entryId: posting.entryId,
        kind: posting.kind,
        reference: posting.reference,
        amount: toDecimalString(posting.amountMinor, asset),
        fee: toDecimalString(posting.feeMinor, asset),
        amountUsd: prices.usdValue(posting.amountMinor, asset, at.slice(0, 10)),
        balanceAfter: toDecimalString(balance, asset),
      };
    });
    const closingUsd = balance === 0n ? '0.00' : prices.usdValue(balance, asset, toDay);
    if (closingUsd === null) unvalued.add(asset);
    else totalUsd = totalUsd.plus(closingUsd);
    accounts.push({
      section: sectionOf(account.type),
      type: account.type,
      asset,
      ownerRef: ownerLabel,
      opening: toDecimalString(activity.openingMinor, asset),
      closing: toDecimalString(balance, asset),
      closingUsd,
      movements,
    });
  }
  return {
    from: fromDay,
    to: toDay,
    generatedAt: generatedAt.toISOString(),
    accounts,
    closingUsdTotal: totalUsd.toFixed(2),
    unvaluedAssets: [...unvalued].sort(),
    entryFees: [],
    loans: [],
  };
}
