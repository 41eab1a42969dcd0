import { z } from 'zod';

import { ASSET_CODES, ASSET_PRECISION, type AssetCode } from './assets.ts';

export { ASSET_CODES, ASSET_PRECISION, type AssetCode, isAssetCode, toDecimalString } from './assets.ts';
export const assetCodeSchema = z.enum(ASSET_CODES as [AssetCode, ...AssetCode[]]);

/** Why a decimal string was refused by `parseAmountMinor`. */
export type AmountParseFailure = 'format' | 'precision' | 'range';

/** Raised by `parseAmountMinor`; `reason` says which rule the text broke. */
export class AmountParseError extends Error {
  constructor(
    readonly reason: AmountParseFailure,
    readonly text: string,
    readonly asset: AssetCode,
  ) {
    super(`cannot read "${text}" as an amount of ${asset}: ${reason}`);
    this.name = 'AmountParseError';
  }
}

/** Plain non-negative decimal: digits, optionally a point and more digits. No sign, exponent or separators. */
const DECIMAL_PATTERN = /^(0|[1-9]\d*)(\.\d+)?$/;

/** Largest amount the `numeric(38,0)` columns hold. */
const MINOR_MAX = 10n ** 38n - 1n;

/**
 * Parse a wire decimal string ("1234.50") exactly into minor units of `asset`.
 * Refuses (throws `AmountParseError`) a malformed string, one with more decimals than the asset's
 * precision (trailing zeros beyond it are refused too, so a client cannot hide a precision bug), and
 * one too large to store.
 */
export function parseAmountMinor(text: string, asset: AssetCode): bigint {
  const match = DECIMAL_PATTERN.exec(text);
  if (!match) throw new AmountParseError('format', text, asset);
  const precision = ASSET_PRECISION[asset];
  const whole = match[1] ?? '0';
  const fraction = (match[2] ?? '').slice(1);
  if (fraction.length > precision) throw new AmountParseError('precision', text, asset);
  const minor = BigInt(whole + fraction.padEnd(precision, '0'));
  if (minor > MINOR_MAX) throw new AmountParseError('range', text, asset);
  return minor;
}

/**
 * A wire amount's shape: at most 30 integer digits (with the widest precision, 8, that is 38 digits
 * of minor units: the `numeric(38,0)` columns) and at most 18 decimals (more than any asset has;
 * the asset's own precision is checked by `readAmountMinor`). No sign, exponent, separators or spaces.
 */
const WIRE_DECIMAL_PATTERN = /^(0|[1-9]\d{0,29})(\.\d+)?$/;
/** The same, with an optional leading minus (a signed amount: an adjustment's debit). */
const WIRE_SIGNED_DECIMAL_PATTERN = /^-?(0|[1-9]\d{0,29})(\.\d+)?$/;
/** Longest wire amount: sign, 30 digits, point, 18 decimals. */
export const WIRE_AMOUNT_LENGTH_MAX = 50;

/**
 * The OpenAPI marks of an amount field (docs/decisions/0010-input-rules.md): `format: 'decimal'`
 * and `x-amount: 'unsigned' | 'signed'`, so a client, a linter and the API tests find every amount
 * field of the document.
 */
export const AMOUNT_OPENAPI_FORMAT = 'decimal';

/**
 * zod schema of a wire amount: a non-negative decimal string (`WIRE_DECIMAL_PATTERN`). Precision,
 * zero and range are checked against the asset by `withAmountMinor` (or `amountMinorSchema` for a
 * fixed asset). A refused format aborts the field's checks, so a refinement chained after it (a
 * threshold) never sees text that is not an amount. Every amount field of every contract uses this
 * schema, `signedDecimalAmountSchema` or a schema built on them.
 */
export const decimalAmountSchema = z
  .string({ error: 'validation.amount' })
  .max(WIRE_AMOUNT_LENGTH_MAX, { error: 'validation.amount', abort: true })
  .regex(WIRE_DECIMAL_PATTERN, { error: 'validation.amount', abort: true })
  .meta({ format: AMOUNT_OPENAPI_FORMAT, 'x-amount': 'unsigned' });

/**
 * zod schema of a signed wire amount ("-12.50"): positive credits, negative debits (manual
 * adjustments). Same bounds as `decimalAmountSchema`; marked `x-amount: 'signed'`.
 */
export const signedDecimalAmountSchema = z
  .string({ error: 'validation.amount' })
  .max(WIRE_AMOUNT_LENGTH_MAX, { error: 'validation.amount', abort: true })
  .regex(WIRE_SIGNED_DECIMAL_PATTERN, { error: 'validation.amount', abort: true })
  .meta({ format: AMOUNT_OPENAPI_FORMAT, 'x-amount': 'signed' });

/**
 * An amount in minor units of its asset that the contracts have read from the wire and checked: a
 * `bigint` (never a JS number) greater than zero, with no more decimals than the asset has and small
 * enough for the `numeric(38,0)` columns. Only `readAmountMinor` (through `amountMinorSchema` and
 * `withAmountMinor`) makes one; a service takes it as a plain `bigint`.
 */
export type AmountMinor = bigint & z.core.$brand<'AmountMinor'>;

/** A wire amount refused by `readAmountMinor`: the validation message key and its placeholders. */
export interface AmountRefusal {
  messageKey: 'validation.amount' | 'validation.amountPrecision' | 'validation.amountPositive';
  params: Record<string, number>;
}

/**
 * Read an amount a client entered (wire decimal string) as `AmountMinor` of `asset`, or say why it
 * is refused, with the same keys the API has always answered: `validation.amount` (not a plain
 * non-negative decimal, or above the `numeric(38,0)` range), `validation.amountPrecision` with
 * `{ decimals }` (more decimals than the asset's precision, trailing zeros included), then
 * `validation.amountPositive` (zero). Never throws.
 */
export function readAmountMinor(
  text: string,
  asset: AssetCode,
): { amountMinor: AmountMinor } | { refusal: AmountRefusal } {
  let minor: bigint;
  try {
    minor = parseAmountMinor(text, asset);
  } catch (error) {
    if (!(error instanceof AmountParseError)) throw error;
    if (error.reason === 'precision')
      return { refusal: { messageKey: 'validation.amountPrecision', params: { decimals: ASSET_PRECISION[asset] } } };
    return { refusal: { messageKey: 'validation.amount', params: {} } };
  }
  if (minor <= 0n) return { refusal: { messageKey: 'validation.amountPositive', params: {} } };
  return { amountMinor: minor as AmountMinor };
}

/** The zod issue of a refused amount at `path`, worded by its message key (the server adds `params`). */
function amountIssue(refusal: AmountRefusal, input: string, path: PropertyKey[]): z.core.$ZodRawIssue {
  return { code: 'custom', message: refusal.messageKey, params: refusal.params, input, path };
}

/**
 * zod schema of a positive wire amount of a fixed `asset`: the decimal string in, `AmountMinor` out.
 * Refusals are field issues with `readAmountMinor`'s message keys (placeholders in `params`). For an
 * amount whose asset is another field of the same body, use `withAmountMinor`.
 */
export function amountMinorSchema(asset: AssetCode) {
  return decimalAmountSchema.transform((text, context): AmountMinor => {
    const read = readAmountMinor(text, asset);
    if ('amountMinor' in read) return read.amountMinor;
    context.issues.push(amountIssue(read.refusal, text, []));
    return z.NEVER;
  });
}

/**
 * Money parsed once, at the edge: wraps an object schema whose `amountField` is a
 * wire decimal string (`decimalAmountSchema`, which refuses the format on the field itself) and
 * whose asset follows from the other fields (`assetOf`: `(body) => body.coin`, or the side's coin
 * of a swap). Once every field is valid, the amount is read with `readAmountMinor`; the output has
 * `<amountField>Minor: AmountMinor` in place of the string. A refusal (precision with
 * `{ decimals }`, zero, out of range) is an issue on `amountField`, so the API answers 120 naming
 * that field, as before. The wire (input) shape, and so the OpenAPI document, is unchanged.
 */
export function withAmountMinor<Schema extends z.ZodType<Record<Field, string>>, Field extends string = 'amount'>(
  schema: Schema,
  assetOf: (value: z.output<Schema>) => AssetCode,
  amountField: Field = 'amount' as Field,
) {
  return schema.transform((value, context) => {
    const text = value[amountField];
    const read = readAmountMinor(text, assetOf(value));
    if ('refusal' in read) {
      context.issues.push(amountIssue(read.refusal, text, [amountField]));
      return z.NEVER;
    }
    const { [amountField]: _wire, ...rest } = value;
    return { ...rest, [`${amountField}Minor`]: read.amountMinor } as Omit<z.output<Schema>, Field> & {
      [Key in `${Field}Minor`]: AmountMinor;
    };
  });
}

/** Significant digits of a displayed exchange rate. */
export const RATE_SIGNIFICANT_DIGITS = 6;

/**
 * `scaled / 10^decimals` with thousands separators (Intl.NumberFormat, en-US digits), the fraction
 * cut of trailing zeros down to `decimalsMin`. Exact: Intl formats the decimal string without a float.
 */
function groupDecimal(scaled: bigint, decimals: number, decimalsMin: number): string {
  const digits = scaled.toString().padStart(decimals + 1, '0');
  const text = decimals > 0 ? `${digits.slice(0, -decimals)}.${digits.slice(-decimals)}` : digits;
  const format = new Intl.NumberFormat('en-US', {
    minimumFractionDigits: Math.min(decimalsMin, decimals),
    maximumFractionDigits: decimals,
  });
  // ECMA-402 reads a numeric string as an exact decimal; the lib typings only list number.
  return format.format(text as unknown as number);
}

/**
 * The positive fraction `numerator / denominator` (bigints) with `significantDigits` significant
 * digits, rounded half up, thousands separators and at least 2 decimals; the whole integer part is
 * always kept (1234567.891 → "1,234,567.89"). 0 → "0.00".
 */
function formatSignificant(numerator: bigint, denominator: bigint, significantDigits: number): string {
  if (numerator === 0n) return '0.00';
  const whole = numerator / denominator;
  let decimals: number;
  if (whole > 0n) {
    decimals = Math.max(2, significantDigits - whole.toString().length);
  } else {
    // Leading zeros after the point: the first significant digit is at decimal position `position`.
    let position = 1;
    while (numerator * 10n ** BigInt(position) < denominator) position += 1;
    decimals = Math.max(2, position - 1 + significantDigits);
  }
  const scale = 10n ** BigInt(decimals);
  const scaled = (numerator * scale * 2n + denominator) / (denominator * 2n);
  return groupDecimal(scaled, decimals, 2);
}

/** A wire decimal ("0.000055110975226") as the fraction digits / 10^decimals; null when it is none or zero. */
function readRate(rate: string): { numerator: bigint; denominator: bigint } | null {
  const match = DECIMAL_PATTERN.exec(rate);
  if (!match) return null;
  const fraction = (match[2] ?? '').slice(1);
  const numerator = BigInt((match[1] ?? '0') + fraction);
  return numerator === 0n ? null : { numerator, denominator: 10n ** BigInt(fraction.length) };
}

/**
 * An exchange rate (wire decimal: units of the second coin per one of the first) for people to read:
 * `RATE_SIGNIFICANT_DIGITS` significant digits (rounded half up), thousands separators, at least 2
 * decimals, the integer part whole: "0.000055110975226" → "0.000055111" (0.0000551110 without its
 * trailing zero);
 * "18145.2019" → "18,145.20"; "1.000123456" → "1.00012". Display only: amounts are computed by the
 * server from the exact rate. The text itself when it is no positive decimal. See docs/money-format.md.
 */
export function displayRate(rate: string, significantDigits: number = RATE_SIGNIFICANT_DIGITS): string {
  const read = readRate(rate);
  return read ? formatSignificant(read.numerator, read.denominator, significantDigits) : rate;
}

/**
 * The inverse of an exchange rate (units of the first coin per one of the second), computed exactly
 * from the wire decimal and shown as `displayRate` shows a rate: "0.000055110975226" → "18,145.21".
 * Null when `rate` is no positive decimal (there is no inverse to show). See docs/money-format.md.
 */
export function displayInverseRate(rate: string, significantDigits: number = RATE_SIGNIFICANT_DIGITS): string | null {
  const read = readRate(rate);
  return read ? formatSignificant(read.denominator, read.numerator, significantDigits) : null;
}
