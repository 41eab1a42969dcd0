import { describe, expect, it } from 'vitest';
import { bankAccountFormSchema, countryUsesIban, holderMatchesVerifiedName, isBankCountry } from './payments.ts';

const GB = {
  accountHolder: 'Tai Man Chan',
  bankName: 'NatWest',
  swiftBic: 'nwbk-gb-2l',
  iban: ' gb82 west 1234 5698 7654 32 ',
  currency: 'USD',
  country: 'gb',
};

describe('bank account rules', () => {
  it('matches the verified name without case or spaces, in either order', () => {
    const name = { firstName: 'Tai Man', lastName: 'Chan' };
    expect(holderMatchesVerifiedName('Tai Man Chan', name)).toBe(true);
    expect(holderMatchesVerifiedName('  CHAN  taiman ', name)).toBe(true);
    expect(holderMatchesVerifiedName('TaiMan Chan Jr', name)).toBe(false);
    expect(holderMatchesVerifiedName('Chan', name)).toBe(false);
    expect(holderMatchesVerifiedName(' ', { firstName: '', lastName: '' })).toBe(false);
  });

  it('knows which countries use the IBAN (SWIFT registry) and which codes are countries', () => {
    expect(countryUsesIban('GB')).toBe(true);
    expect(countryUsesIban('DE')).toBe(true);
    expect(countryUsesIban('HK')).toBe(false);
    expect(countryUsesIban('US')).toBe(false);
    expect(isBankCountry('HK')).toBe(true);
    expect(isBankCountry('XX')).toBe(false);
    expect(isBankCountry('hk')).toBe(false);
  });

  it('normalises codes: BIC and IBAN compact and upper case, blank optional fields absent', () => {
    const parsed = bankAccountFormSchema.parse({ ...GB, accountNumber: '  ' });
    expect(parsed).toMatchObject({ swiftBic: 'NWBKGB2L', iban: 'GB82WEST12345698765432', country: 'GB' });
    expect(parsed.accountNumber).toBeUndefined();
  });

  it('names the field of each rule between fields', () => {
    const issues = (input: Record<string, unknown>) =>
      bankAccountFormSchema.safeParse(input).error?.issues.map((issue) => `${issue.path.join('.')}:${issue.message}`);
    expect(issues({ ...GB, swiftBic: 'DEUTDEFF' })).toEqual(['swiftBic:validation.swiftBicCountry']);
    expect(issues({ ...GB, iban: '' })).toEqual(['iban:validation.ibanRequired']);
    expect(issues({ ...GB, iban: 'DE89370400440532013000' })).toEqual(['iban:validation.ibanCountry']);
    expect(issues({ ...GB, country: 'US', swiftBic: 'CHASUS33', iban: undefined })).toEqual([
      'accountNumber:validation.accountNumberRequired',
    ]);
    // The rules between fields run even when another field is refused: a form shows both at once.
    expect(issues({ ...GB, bankName: 'N', swiftBic: 'DEUTDEFF' })).toEqual([
      'bankName:validation.bankName',
      'swiftBic:validation.swiftBicCountry',
    ]);
    // A refused country is reported once, without the rules that depend on it.
    expect(issues({ ...GB, country: 'XX' })).toEqual(['country:validation.country']);
  });
});
