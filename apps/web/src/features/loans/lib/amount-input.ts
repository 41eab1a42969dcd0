import { type AmountRefusal, type AssetCode, readAmountMinor } from '@meridian/contracts/money';

/**
 * What a typed amount is: empty, refused as an amount of `asset` (format, too many decimals or zero:
 * the contract's own reading, `readAmountMinor`, with its validation message key), or its minor units.
 */
export type AmountInput =
  { kind: 'empty' } | { kind: 'invalid'; refusal: AmountRefusal } | { kind: 'ok'; minor: bigint; text: string };

export function readAmountInput(text: string, asset: AssetCode): AmountInput {
  const trimmed = text.trim();
  if (trimmed === '') return { kind: 'empty' };
  const read = readAmountMinor(trimmed, asset);
  if ('refusal' in read) return { kind: 'invalid', refusal: read.refusal };
  return { kind: 'ok', minor: read.amountMinor, text: trimmed };
}
