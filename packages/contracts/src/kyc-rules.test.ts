import { describe, expect, it } from 'vitest';
import {
  dateOfBirthSchema,
  englishNameSchema,
  hkidCheckDigit,
  hkidSchema,
  identityDocumentSchema,
  isAdultOn,
  isValidHkid,
  passportNumberSchema,
  usTaxIdKind,
  usTaxIdSchema,
} from './kyc-rules.ts';
import { isValidationMessageKey, VALIDATION_MESSAGES } from './validation.ts';

/** The first message key a schema answers for `value`, or null when it accepts it. */
function firstError(
  schema: { safeParse: (value: unknown) => { success: boolean; error?: { issues: { message: string }[] } } },
  value: unknown,
): string | null {
  const result = schema.safeParse(value);
  return result.success ? null : (result.error?.issues[0]?.message ?? 'unknown');
}

describe('HKID check digit', () => {
  it('accepts the Immigration Department sample A123456(3), with and without parentheses', () => {
    expect(hkidCheckDigit('A123456')).toBe('3');
    expect(isValidHkid('A123456(3)')).toBe(true);
    expect(isValidHkid('A1234563')).toBe(true);
    expect(isValidHkid(' a123456 (3) ')).toBe(true);
    expect(hkidSchema.parse('a1234563')).toBe('A123456(3)');
  });

  it('handles a check value of 10 written A, and two-letter prefixes', () => {
    // G123456: 36·9 + 16·8 + 1·7 + 2·6 + 3·5 + 4·4 + 5·3 + 6·2 = 529 ≡ 1 (mod 11) → 10 → A.
    expect(hkidCheckDigit('G123456')).toBe('A');
    expect(isValidHkid('G123456(A)')).toBe(true);
    // AB987654: 10·9 + 11·8 + 9·7 + 8·6 + 7·5 + 6·4 + 5·3 + 4·2 = 371 ≡ 8 (mod 11) → 3.
    expect(isValidHkid('AB987654(3)')).toBe(true);
  });

  it('refuses a wrong check digit, a bad shape, or a check letter other than A', () => {
    expect(isValidHkid('A123456(4)')).toBe(false);
    expect(isValidHkid('G123456(0)')).toBe(false);
    expect(isValidHkid('A12345(6)')).toBe(false);
    expect(isValidHkid('ABC123456(3)')).toBe(false);
    expect(isValidHkid('C668668(E)')).toBe(false);
    expect(isValidHkid('1234567(3)')).toBe(false);
    expect(firstError(hkidSchema, 'A123456(4)')).toBe('validation.hkid');
  });
});

describe('ID number by type', () => {
  it('checks the number by the rule of its type and reports at idNumber', () => {
    expect(identityDocumentSchema.parse({ idType: 'hkid', idNumber: 'a1234563' })).toEqual({
      idType: 'hkid',
      idNumber: 'A123456(3)',
    });
    expect(identityDocumentSchema.parse({ idType: 'passport', idNumber: 'k 1234 5678' })).toEqual({
      idType: 'passport',
      idNumber: 'K12345678',
    });
    const bad = identityDocumentSchema.safeParse({ idType: 'hkid', idNumber: 'A123456(4)' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]).toMatchObject({ path: ['idNumber'], message: 'validation.hkid' });
    expect(firstError(identityDocumentSchema, { idType: 'visa', idNumber: 'X1' })).toBe('validation.idType');
    expect(firstError(identityDocumentSchema, { idType: 'nationalId', idNumber: 'AB#12' })).toBe('validation.idNumber');
    expect(identityDocumentSchema.parse({ idType: 'drivingLicence', idNumber: 'smith-901015-jn9' }).idNumber).toBe(
      'SMITH-901015-JN9',
    );
  });

  it('takes a passport number of 6 to 9 letters or digits only', () => {
    expect(passportNumberSchema.parse('123456')).toBe('123456');
    expect(passportNumberSchema.parse('H12345678')).toBe('H12345678');
    expect(firstError(passportNumberSchema, '12345')).toBe('validation.passportNumber');
    expect(firstError(passportNumberSchema, 'H123456789')).toBe('validation.passportNumber');
    expect(firstError(passportNumberSchema, 'H1234-567')).toBe('validation.passportNumber');
  });
});

describe('name in English characters', () => {
  it('accepts names as printed on documents', () => {
    for (const name of ['Chan', 'Tai Man', "O'Neil", 'Mary-Jane', 'St. John', 'Jr.'])
      expect(englishNameSchema.parse(name)).toBe(name);
    expect(englishNameSchema.parse('  Tai   Man ')).toBe('Tai Man');
  });

  it('refuses Chinese, accented letters, digits and symbols', () => {
    for (const name of ['陳大文', 'José', 'Chan1', 'Chan_Tai', '-Chan', "Chan--'Tai", 'A'.repeat(51)]) {
      expect(firstError(englishNameSchema, name)).toBe('validation.nameEnglish');
    }
    expect(firstError(englishNameSchema, '   ')).toBe('validation.required');
  });
});

describe('date of birth, 18 or older', () => {
  const today = () => '2026-11-24';
  it('accepts someone 18 today and refuses someone 18 tomorrow', () => {
    expect(dateOfBirthSchema(today).parse('2008-11-24')).toBe('2008-11-24');
    expect(firstError(dateOfBirthSchema(today), '2008-11-25')).toBe('validation.age18');
  });

  it('lets a 29 February birthday come of age on 28 February', () => {
    expect(isAdultOn('2008-02-29', '2026-02-27')).toBe(false);
    expect(isAdultOn('2008-02-29', '2026-02-28')).toBe(true);
  });

  it('refuses impossible, future and malformed dates', () => {
    expect(firstError(dateOfBirthSchema(today), '1990-02-30')).toBe('validation.dateOfBirth');
    expect(firstError(dateOfBirthSchema(today), '2027-01-01')).toBe('validation.dateOfBirth');
    expect(firstError(dateOfBirthSchema(today), '1899-12-31')).toBe('validation.dateOfBirth');
    expect(firstError(dateOfBirthSchema(today), '24/11/1990')).toBe('validation.dateOfBirth');
  });
});

describe('US SSN and ITIN', () => {
  it('accepts issued-range SSNs and ITINs and formats them AAA-GG-SSSS', () => {
    expect(usTaxIdKind('123-45-6789')).toBe('ssn');
    expect(usTaxIdKind('665-01-0001')).toBe('ssn');
    expect(usTaxIdKind('899-99-9999')).toBe('ssn');
    expect(usTaxIdSchema.parse('123456789')).toBe('123-45-6789');
    expect(usTaxIdKind('900-70-0000')).toBe(null);
    expect(usTaxIdKind('912-70-1234')).toBe('itin');
    expect(usTaxIdKind('999-50-1234')).toBe('itin');
    expect(usTaxIdKind('987-94-1234')).toBe('itin');
  });

  it('refuses never-issued areas, group 00, serial 0000 and voided numbers', () => {
    for (const value of [
      '000-12-3456',
      '666-12-3456',
      '123-00-4567',
      '123-45-0000',
      '078-05-1120',
      '219-09-9999',
      '12-345-6789',
      '1234-56-789',
      'abc-de-fghi',
    ]) {
      expect(firstError(usTaxIdSchema, value)).toBe('validation.ssn');
    }
  });

  it('refuses ITIN-area numbers outside the ITIN group ranges', () => {
    for (const group of ['00', '10', '49', '66', '69', '89', '93']) expect(usTaxIdKind(`912-${group}-1234`)).toBe(null);
  });
});

describe('message keys', () => {
  it('exist in both locales', () => {
    for (const key of [
      'validation.idType',
      'validation.hkid',
      'validation.passportNumber',
      'validation.idNumber',
      'validation.nameEnglish',
      'validation.dateOfBirth',
      'validation.age18',
      'validation.ssn',
    ]) {
      expect(isValidationMessageKey(key)).toBe(true);
      const texts = VALIDATION_MESSAGES[key as keyof typeof VALIDATION_MESSAGES];
      expect(texts['en-US'].length).toBeGreaterThan(0);
      expect(texts['zh-HK'].length).toBeGreaterThan(0);
    }
  });
});
