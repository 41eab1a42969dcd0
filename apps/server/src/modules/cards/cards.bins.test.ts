import { describe, expect, it } from 'vitest';
import { generatePan, isInNetworkRange, isLuhnValid, luhnCheckDigit } from './cards.bins.ts';

/**
 * Published test card numbers (Stripe's "Testing" page, as listed in the team's data set
 * data/cards/test_card_numbers.csv): every one passes Luhn and falls in its network's range.
 */
const PUBLISHED = [
  ['4242424242424242', 'VISA'],
  ['4000056655665556', 'VISA'],
  ['5555555555554444', 'MASTERCARD'],
  ['2223003122003222', 'MASTERCARD'],
  ['5200828282828210', 'MASTERCARD'],
  ['5105105105105100', 'MASTERCARD'],
] as const;

describe('sandbox card numbers', () => {
  it('checks the Luhn digit of published test numbers and refuses a changed digit', () => {
    for (const [pan, network] of PUBLISHED) {
      expect(isLuhnValid(pan)).toBe(true);
      expect(isInNetworkRange(pan, network)).toBe(true);
      expect(luhnCheckDigit(pan.slice(0, -1))).toBe(Number(pan.at(-1)));
    }
    expect(isLuhnValid('4242424242424241')).toBe(false);
    expect(isInNetworkRange('4242424242424242', 'MASTERCARD')).toBe(false);
  });

  it('generates 16-digit numbers in the network range that pass Luhn', () => {
    for (const network of ['VISA', 'MASTERCARD'] as const)
      for (let index = 0; index < 200; index += 1) {
        const pan = generatePan(network);
        expect(pan).toMatch(/^\d{16}$/);
        expect(isLuhnValid(pan)).toBe(true);
        expect(isInNetworkRange(pan, network)).toBe(true);
      }
  });
});
