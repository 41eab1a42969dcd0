import dayjs from 'dayjs';
import { z } from 'zod';

/**
 * Document rules of identity verification ("name in English characters; ID
 * number valid; US residents must provide an SSN"), shared by the web forms and the server so the
 * two cannot drift. Each schema answers a key of `VALIDATION_MESSAGES` (`./validation.ts`), which
 * the server's error handler and the web forms turn into en-US or zh-HK.
 */

// ---------------------------------------------------------------- identity document types

/** The identity documents accepted for basic KYC. */
export const ID_TYPES = ['passport', 'nationalId', 'hkid', 'drivingLicence'] as const;
export type IdType = (typeof ID_TYPES)[number];
export const idTypeSchema = z.enum(ID_TYPES, { error: 'validation.idType' });

/** Document types that have a back side to photograph (a passport's data page is one side). */
export const ID_TYPES_WITH_BACK: ReadonlySet<IdType> = new Set<IdType>(['nationalId', 'hkid', 'drivingLicence']);

// ---------------------------------------------------------------- HKID

/**
 * A Hong Kong Identity Card number: 1 or 2 letters, 6 digits and a check digit 0–9 or A, the check
 * digit written with or without parentheses (`A123456(3)`, `A1234563`). Spaces are ignored and
 * letters upper-cased before the pattern is applied.
 */
const HKID_PATTERN = /^([A-Z]{1,2})(\d{6})\(?([0-9A])\)?$/;

/**
 * The check digit of an HKID body (`A123456` or `AB987654`), `'0'`–`'9'` or `'A'`, or null when the
 * body is malformed. The published scheme: a one-letter prefix is padded with a space worth 36;
 * letters are worth A=10 … Z=35, digits their value; the 8 characters are weighted 9 down to 2;
 * the check value makes the weighted sum a multiple of 11, a check value of 10 being written `A`.
 */
export function hkidCheckDigit(body: string): string | null {
  const match = /^([A-Z]{1,2})(\d{6})$/.exec(body.toUpperCase());
  if (!match) return null;
  const letters = match[1] ?? '';
  const digits = match[2] ?? '';
  const letterValues =
    letters.length === 1 ? [36, letters.charCodeAt(0) - 55] : [...letters].map((letter) => letter.charCodeAt(0) - 55);
  const values = [...letterValues, ...[...digits].map(Number)];
  const weightedSum = values.reduce((sum, value, index) => sum + value * (9 - index), 0);
  const check = (11 - (weightedSum % 11)) % 11;
  return check === 10 ? 'A' : String(check);
}

/** The canonical form `A123456(3)` of an HKID, or null when it is malformed or its check digit is wrong. */
export function normaliseHkid(raw: string): string | null {
  const compact = raw.replace(/\s+/g, '').toUpperCase();
  const match = HKID_PATTERN.exec(compact);
  if (!match) return null;
  const body = `${match[1] ?? ''}${match[2] ?? ''}`;
  return hkidCheckDigit(body) === match[3] ? `${body}(${match[3] ?? ''})` : null;
}

/** Whether `raw` is a well-formed HKID with a correct check digit. */
export function isValidHkid(raw: string): boolean {
  return normaliseHkid(raw) !== null;
}

/** An HKID, normalised to `A123456(3)`; refused with `validation.hkid`. */
export const hkidSchema = z
  .string({ error: 'validation.required' })
  .max(20, { error: 'validation.hkid' })
  .refine(isValidHkid, { error: 'validation.hkid' })
  .transform((value) => normaliseHkid(value) ?? value);

// ---------------------------------------------------------------- other ID numbers

/** A passport number: 6–9 letters or digits (ICAO 9303 allows up to 9), upper-cased, spaces removed. */
export const PASSPORT_NUMBER_PATTERN = /^[A-Z0-9]{6,9}$/;
/**
 * A national identity card number: 5–20 letters or digits, single hyphens allowed between them.
 * Formats differ by country; this refuses only what no national scheme uses (symbols, 4 or fewer
 * characters). Per-country check digits are not verified.
 */
export const NATIONAL_ID_PATTERN = /^[A-Z0-9](?:-?[A-Z0-9]){4,19}$/;
/** A driving licence number: 5–20 letters or digits, single hyphens allowed between them (formats differ by country). */
export const DRIVING_LICENCE_PATTERN = /^[A-Z0-9](?:-?[A-Z0-9]){4,19}$/;

const compactUpper = (value: string) => value.replace(/\s+/g, '').toUpperCase();

/** A passport number, normalised (upper case, no spaces); refused with `validation.passportNumber`. */
export const passportNumberSchema = z
  .string({ error: 'validation.required' })
  .transform(compactUpper)
  .pipe(z.string().regex(PASSPORT_NUMBER_PATTERN, { error: 'validation.passportNumber' }));

/** A national ID number, normalised; refused with `validation.idNumber`. */
export const nationalIdNumberSchema = z
  .string({ error: 'validation.required' })
  .transform(compactUpper)
  .pipe(z.string().regex(NATIONAL_ID_PATTERN, { error: 'validation.idNumber' }));

/** A driving licence number, normalised; refused with `validation.idNumber`. */
export const drivingLicenceNumberSchema = z
  .string({ error: 'validation.required' })
  .transform(compactUpper)
  .pipe(z.string().regex(DRIVING_LICENCE_PATTERN, { error: 'validation.idNumber' }));

/** The schema that validates an ID number of `idType`. */
export function idNumberSchemaFor(idType: IdType) {
  switch (idType) {
    case 'hkid':
      return hkidSchema;
    case 'passport':
      return passportNumberSchema;
    case 'nationalId':
      return nationalIdNumberSchema;
    case 'drivingLicence':
      return drivingLicenceNumberSchema;
  }
}

/**
 * A `{ idType, idNumber }` pair whose number is checked by the rule of its type; a bad number is
 * reported at `idNumber` with the type's message key. The number comes back normalised.
 */
export const identityDocumentSchema = z
  .object({
    idType: idTypeSchema,
    idNumber: z
      .string({ error: 'validation.required' })
      .min(1, { error: 'validation.required' })
      .max(40, { error: 'validation.idNumber' }),
  })
  .transform((value, ctx) => {
    const parsed = idNumberSchemaFor(value.idType).safeParse(value.idNumber);
    if (!parsed.success) {
      for (const issue of parsed.error.issues)
        ctx.addIssue({ code: 'custom', path: ['idNumber'], message: issue.message });
      return z.NEVER;
    }
    return { idType: value.idType, idNumber: parsed.data };
  });

// ---------------------------------------------------------------- names

/**
 * A name in English characters as printed on the document: ASCII letters, with single
 * spaces, hyphens, apostrophes and full stops between parts (`Mary-Jane O'Neil`, `Chan Tai Man`,
 * `St. John`); 1–50 characters after trimming. Accented letters are refused: documents print the
 * machine-readable ASCII form of a name, which is the one compared against sanctions lists.
 */
export const ENGLISH_NAME_PATTERN = /^[A-Za-z]+(?:[ '.-]{1,2}[A-Za-z]+)*\.?$/;
export const ENGLISH_NAME_LENGTH_MAX = 50;

/** A first or last name in English characters (trimmed, inner runs of spaces collapsed); refused with `validation.nameEnglish`. */
export const englishNameSchema = z
  .string({ error: 'validation.required' })
  .transform((value) => value.trim().replace(/ {2,}/g, ' '))
  .pipe(
    z
      .string()
      .min(1, { error: 'validation.required' })
      .max(ENGLISH_NAME_LENGTH_MAX, { error: 'validation.nameEnglish' })
      .regex(ENGLISH_NAME_PATTERN, { error: 'validation.nameEnglish' }),
  );

// ---------------------------------------------------------------- date of birth

/** The youngest age allowed to open a verified account ("date of birth (18+)"). */
export const AGE_YEARS_MIN = 18;

/**
 * Whether someone born on `dateOfBirth` (`YYYY-MM-DD`) is at least `AGE_YEARS_MIN` years old on
 * `today` (`YYYY-MM-DD`, the calendar date where the check runs). A person born on 29 February
 * comes of age on 28 February in a common year (dayjs clamps the day when adding years).
 */
export function isAdultOn(dateOfBirth: string, today: string): boolean {
  const born = dayjs(dateOfBirth);
  return born.isValid() && !born.add(AGE_YEARS_MIN, 'year').isAfter(dayjs(today), 'day');
}

/**
 * A date of birth `YYYY-MM-DD`: a real calendar date (no 31 February), not before 1900, not in the
 * future, and at least 18 years ago. `validation.dateOfBirth` for a bad date, `validation.age18`
 * for a minor. `today` defaults to the local date when the schema is parsed.
 */
export function dateOfBirthSchema(today: () => string = () => dayjs().format('YYYY-MM-DD')) {
  return z
    .string({ error: 'validation.required' })
    .pipe(z.iso.date({ error: 'validation.dateOfBirth' }).max(10))
    .refine((value) => value >= '1900-01-01' && value <= today(), { error: 'validation.dateOfBirth', abort: true })
    .refine((value) => isAdultOn(value, today()), { error: 'validation.age18' });
}

// ---------------------------------------------------------------- US taxpayer numbers

/**
 * ITIN group numbers the IRS issues (digits 4–5 of `9XX-GG-XXXX`): 50–65, 70–88, 90–92, 94–99
 * (IRS "Individual Taxpayer Identification Number" format, extended in 2011 and 2012).
 */
export function isItinGroup(group: number): boolean {
  return (
    (group >= 50 && group <= 65) ||
    (group >= 70 && group <= 88) ||
    (group >= 90 && group <= 92) ||
    (group >= 94 && group <= 99)
  );
}

/**
 * Numbers the SSA has voided after they were widely misused (the 1938 Woolworth wallet card
 * 078-05-1120, and 219-09-9999 printed in a 1940 advertisement): valid in form, never a real SSN.
 */
export const VOIDED_SSNS: ReadonlySet<string> = new Set(['078-05-1120', '219-09-9999']);

/** Which kind of US taxpayer number `AAA-GG-SSSS` is, or null when it is malformed or in a never-issued range. */
export function usTaxIdKind(raw: string): 'ssn' | 'itin' | null {
  const match = /^(\d{3})-?(\d{2})-?(\d{4})$/.exec(raw.trim());
  if (!match) return null;
  const [area, group, serial] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (group === 0 || serial === 0) return null;
  if (area >= 900) return isItinGroup(group) ? 'itin' : null;
  if (area === 0 || area === 666) return null;
  return VOIDED_SSNS.has(`${match[1]}-${match[2]}-${match[3]}`) ? null : 'ssn';
}

/**
 * A US Social Security Number or ITIN, `AAA-GG-SSSS` (hyphens optional on input, added on output),
 * refused with `validation.ssn` when malformed or never issued: area 000, 666 or 900–999 for an
 * SSN (SSA randomization rules, 2011); an ITIN (9XX) outside its group ranges; group 00; serial
 * 0000; the voided numbers above.
 */
export const usTaxIdSchema = z
  .string({ error: 'validation.required' })
  .max(11, { abort: true })
  .refine((value) => usTaxIdKind(value) !== null, { error: 'validation.ssn' })
  .transform((value) => {
    const digits = value.replace(/\D/g, '');
    return `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}`;
  });
