/**
 * The asset (coin and currency) configuration, free of zod so every page can import it: each
 * asset's ledger precision, the currency a stablecoin is worth, and the decimals it is shown with.
 * `money.ts` re-exports the ledger half; `money-format.ts` uses the display half.
 */

/**
 * Assets and their precision: the number of decimals of one minor unit (the design's money rules).
 * An amount is always an integer count of minor units (`bigint`) next to its asset code; on the wire
 * it is a decimal string. Nothing in this module ever holds money in a JavaScript `number`.
 */
export const ASSET_PRECISION = {
  BTC: 8,
  ETH: 8,
  USDT: 6,
  USDC: 6,
  USDE: 6,
  /** Monerium's EUR e-money token (EURe) on Ethereum and Gnosis: 1 EURE = 1 EUR. */
  EURE: 6,
  USD: 2,
  EUR: 2,
  GBP: 2,
  JPY: 0,
} as const satisfies Record<string, number>;

export type AssetCode = keyof typeof ASSET_PRECISION;
export const ASSET_CODES = Object.keys(ASSET_PRECISION) as AssetCode[];

/** Whether `value` is the code of an asset the product holds. */
export function isAssetCode(value: string): value is AssetCode {
  return Object.hasOwn(ASSET_PRECISION, value);
}

/**
 * Minor units to the wire form: a plain decimal string with exactly the asset's precision
 * ("1234.500000" for USDT). Negative amounts keep their sign.
 */
export function toDecimalString(minor: bigint, asset: AssetCode): string {
  const precision = ASSET_PRECISION[asset];
  const negative = minor < 0n;
  const digits = (negative ? -minor : minor).toString().padStart(precision + 1, '0');
  const whole = digits.slice(0, digits.length - precision);
  const fraction = digits.slice(digits.length - precision);
  return `${negative ? '-' : ''}${whole}${precision > 0 ? `.${fraction}` : ''}`;
}

/** The fiat currencies (ISO 4217 codes) the product holds. */
export const FIAT_CODES = ['USD', 'EUR', 'GBP', 'JPY'] as const satisfies readonly AssetCode[];
export type FiatCode = (typeof FIAT_CODES)[number];

/** Whether `asset` is a fiat currency (shown with its ISO 4217 symbol and minor units). */
export function isFiatCode(asset: AssetCode): asset is FiatCode {
  return (FIAT_CODES as readonly string[]).includes(asset);
}

/**
 * The fiat currency each stablecoin is worth one of: its amounts are shown with that currency's
 * decimals (a USD-valued amount with 2).
 */
export const STABLECOIN_PEG = {
  USDT: 'USD',
  USDC: 'USD',
  USDE: 'USD',
  EURE: 'EUR',
} as const satisfies Partial<Record<AssetCode, FiatCode>>;

/**
 * Each fiat currency's minor units as ISO 4217 defines them (the "Minor unit" column of its list
 * one: USD, EUR, GBP 2; JPY 0). A literal table: building an `Intl.NumberFormat` per currency to
 * read the same figure cost every page about 9 ms of its start (docs/performance.md); a unit test
 * holds the table to the platform's Intl data, which carries ISO 4217.
 */
export const ISO_4217_MINOR_UNITS: Readonly<Record<FiatCode, number>> = { USD: 2, EUR: 2, GBP: 2, JPY: 0 };

/** A fiat currency's minor units as ISO 4217 defines them (see {@link ISO_4217_MINOR_UNITS}). */
export function iso4217MinorUnits(currency: FiatCode): number {
  return ISO_4217_MINOR_UNITS[currency];
}

/**
 * Decimals each asset is shown with, everywhere (pages, messages, emails, PDF statements;
 * docs/money-format.md). Coins show their full ledger precision (BTC and ETH 8: a holding is
 * never shown other than it is); a stablecoin shows the minor units of the currency it is worth
 * (USDT 2, EURE 2); fiat shows its ISO 4217 minor units. Exports (CSV, Koinly, tax) keep the full
 * ledger precision instead.
 */
export const ASSET_DISPLAY_DECIMALS: Readonly<Record<AssetCode, number>> = {
  BTC: 8,
  ETH: 8,
  USDT: iso4217MinorUnits(STABLECOIN_PEG.USDT),
  USDC: iso4217MinorUnits(STABLECOIN_PEG.USDC),
  USDE: iso4217MinorUnits(STABLECOIN_PEG.USDE),
  EURE: iso4217MinorUnits(STABLECOIN_PEG.EURE),
  USD: iso4217MinorUnits('USD'),
  EUR: iso4217MinorUnits('EUR'),
  GBP: iso4217MinorUnits('GBP'),
  JPY: iso4217MinorUnits('JPY'),
};
