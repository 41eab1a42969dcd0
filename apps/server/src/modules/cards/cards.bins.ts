import { randomInt } from 'node:crypto';
import type { CardNetwork } from '@meridian/contracts/cards';
import binRanges from './data/card-brand-bin-ranges.json' with { type: 'json' };

/**
 * Card numbers of the sandbox processor: real BIN ranges of the networks, a valid Luhn
 * check digit. The ranges are braintree/credit-card-type's (`data/card-brand-bin-ranges.json`,
 * source and commit in the file). Only the leading-digit patterns and the 16-digit length are
 * used: `4` for Visa; 51–55 and 2221–2720 for Mastercard.
 */
type Pattern = number | [number, number];

/** The Luhn check digit (ISO/IEC 7812-1 annex B) to append to `partial` (digits only). */
export function luhnCheckDigit(partial: string): number {
  let sum = 0;
  for (let index = 0; index < partial.length; index += 1) {
    let digit = Number(partial[partial.length - 1 - index]);
    // The rightmost digit of the partial number is doubled (it becomes second from the right).
    if (index % 2 === 0) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return (10 - (sum % 10)) % 10;
}

/** Whether `pan` (digits only) passes the Luhn check. */
export function isLuhnValid(pan: string): boolean {
  if (!/^\d{2,19}$/.test(pan)) return false;
  return luhnCheckDigit(pan.slice(0, -1)) === Number(pan.at(-1));
}

const NETWORK_TYPES: Record<CardNetwork, 'visa' | 'mastercard'> = { VISA: 'visa', MASTERCARD: 'mastercard' };

/** A random leading-digit prefix inside one of the network's published patterns. */
function randomPrefix(network: CardNetwork): string {
  const patterns = binRanges.card_types[NETWORK_TYPES[network]].patterns as Pattern[];
  const pattern = patterns[randomInt(patterns.length)]!;
  if (typeof pattern === 'number') return String(pattern);
  const [low, high] = pattern;
  return String(low + randomInt(high - low + 1));
}

/** Whether `pan` starts inside one of `network`'s published patterns. */
export function isInNetworkRange(pan: string, network: CardNetwork): boolean {
  const patterns = binRanges.card_types[NETWORK_TYPES[network]].patterns as Pattern[];
  return patterns.some((pattern) => {
    if (typeof pattern === 'number') return pan.startsWith(String(pattern));
    const [low, high] = pattern;
    const lead = Number(pan.slice(0, String(low).length));
    return lead >= low && lead <= high;
  });
}

/** A new 16-digit card number of `network`: a prefix in its BIN range, random digits, the Luhn digit. */
export function generatePan(network: CardNetwork): string {
  let partial = randomPrefix(network);
  while (partial.length < 15) partial += String(randomInt(10));
  return partial + String(luhnCheckDigit(partial));
}
