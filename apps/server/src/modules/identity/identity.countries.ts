import { readFileSync } from 'node:fs';
import type { Country } from '@meridian/contracts/identity';
import { findAsset } from '../../platform/security/common-passwords.ts';

/**
 * Countries and calling codes for `GET user/country/list` and mobile numbers, from
 * `assets/iso3166_alpha2_names_en_zhHant_dial.csv` (ISO 3166-1 with CLDR English and Traditional
 * Chinese names and E.164 calling codes; sources in apps/server/test/vectors/README.md). Read on first use.
 */
export const COUNTRIES_FILE = 'iso3166_alpha2_names_en_zhHant_dial.csv';

/** Split one CSV line (RFC 4180 quotes). Every value stays a string: `NA` is Namibia, never null. */
export function parseCsvLine(line: string): string[] {
  const values: string[] = [];
  let current = '';
  let isQuoted = false;
  for (let index = 0; index < line.length; index += 1) {
    const char = line[index];
    if (isQuoted) {
      if (char === '"' && line[index + 1] === '"') {
        current += '"';
        index += 1;
      } else if (char === '"') isQuoted = false;
      else current += char;
    } else if (char === '"') isQuoted = true;
    else if (char === ',') {
      values.push(current);
      current = '';
    } else current += char;
  }
  values.push(current);
  return values;
}

/**
 * Calling codes of one raw Dial value, as digit strings: `1-268` → `1268` (NANP area code joined),
 * `1-809,1-829,1-849` → three codes, `381 p` → `381`, a non-breaking space → none.
 */
export function parseDialCodes(raw: string): string[] {
  return raw
    .split(',')
    .map((part) => part.replace(/[^\d-]/g, '').replace(/-/g, ''))
    .filter((code) => /^\d{1,6}$/.test(code));
}

let countries: Country[] | undefined;

/** Parse the countries file text into the list (sorted by English name). */
export function parseCountries(text: string): Country[] {
  const [header, ...lines] = text.split(/\r?\n/).filter((line) => line.length > 0);
  const columns = parseCsvLine(header ?? '');
  const col = (name: string) => {
    const index = columns.indexOf(name);
    if (index < 0) throw new Error(`countries file lacks column ${name}`);
    return index;
  };
  const [alpha2, nameEn, nameZh, dial] = [
    col('alpha2'),
    col('name_en_cldr'),
    col('name_zh_hant_cldr'),
    col('e164_dial_raw'),
  ];
  return lines
    .map((line) => parseCsvLine(line))
    .map((values) => ({
      code: values[alpha2] ?? '',
      nameEn: values[nameEn] ?? '',
      nameZh: values[nameZh] ?? '',
      dialCodes: parseDialCodes(values[dial] ?? ''),
    }))
    .filter((country) => /^[A-Z]{2}$/.test(country.code))
    .sort((a, b) => a.nameEn.localeCompare(b.nameEn, 'en'));
}

/** Every country (249 rows). */
export function listCountries(): Country[] {
  countries ??= parseCountries(readFileSync(findAsset(COUNTRIES_FILE), 'utf8'));
  return countries;
}

/** The country with ISO 3166-1 alpha-2 `code` (upper case), or undefined: checks a KYC nationality or residence. */
export function findCountry(code: string): Country | undefined {
  return listCountries().find((country) => country.code === code);
}

/**
 * The E.164 form of a national number in `countryCode`: `+` calling code + digits, without the
 * national trunk prefix 0 (kept for Italy and Vatican City, whose numbers include it).
 * Null when the country is unknown, has no calling code, or the result exceeds 15 digits.
 */
export function toE164(countryCode: string, nationalNumber: string): { e164: string; dialCode: string } | null {
  const country = listCountries().find((item) => item.code === countryCode);
  const dialCode = country?.dialCodes[0];
  if (!dialCode) return null;
  const keepsZero = countryCode === 'IT' || countryCode === 'VA';
  const national = keepsZero ? nationalNumber : nationalNumber.replace(/^0/, '');
  const digits = `${dialCode}${national}`;
  if (digits.length > 15 || digits.length < 8) return null;
  return { e164: `+${digits}`, dialCode };
}
