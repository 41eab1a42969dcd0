import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { maskEmail } from '@meridian/contracts/identity';
import { describe, expect, it } from 'vitest';
import { findCountry, listCountries, parseCountries, parseDialCodes, toE164 } from './identity.countries.ts';
import { describeDevice } from './identity.service.ts';

describe('email masking', () => {
  it.each([
    ['alice.example@example.com', 'al*********le@example.com'],
    ['abcde@x.io', 'ab*de@x.io'],
    ['abcd@x.io', 'a**d@x.io'],
    ['ab@x.io', 'a*@x.io'],
    ['not an email', ''],
  ])('%s → %s', (input, masked) => expect(maskEmail(input)).toBe(masked));
});

describe('countries (shared data quirks)', () => {
  const published = readFileSync(
    resolve(import.meta.dirname, '../../../test/vectors/iso3166_alpha2_names_en_zhHant_dial.csv'),
    'utf8',
  );
  const bundled = readFileSync(
    resolve(import.meta.dirname, '../../../assets/iso3166_alpha2_names_en_zhHant_dial.csv'),
    'utf8',
  );

  it('bundles the same file as the published vectors (test/vectors)', () => expect(bundled).toBe(published));

  it('parses every quirk of the Dial column', () => {
    expect(parseDialCodes('1-268')).toEqual(['1268']);
    expect(parseDialCodes('1-809,1-829,1-849')).toEqual(['1809', '1829', '1849']);
    expect(parseDialCodes('381 p')).toEqual(['381']);
    expect(parseDialCodes('\u00a0')).toEqual([]);
    expect(parseDialCodes('39-06')).toEqual(['3906']);
  });

  it('keeps NA (Namibia) as a code, and 249 countries', () => {
    const list = parseCountries(published);
    expect(list).toHaveLength(249);
    expect(list.find((country) => country.code === 'NA')?.nameEn).toBe('Namibia');
  });

  it('names every country in English and Traditional Chinese, for KYC nationality and residence', () => {
    const list = listCountries();
    expect(list).toHaveLength(249);
    for (const country of list) {
      expect(country.nameEn.trim()).not.toBe('');
      expect(country.nameZh.trim()).not.toBe('');
    }
    expect(findCountry('HK')).toMatchObject({ nameEn: 'Hong Kong', nameZh: '中國香港特別行政區' });
    expect(findCountry('US')?.nameZh).toBe('美國');
    expect(findCountry('XK')).toBeUndefined();
    expect(findCountry('hk')).toBeUndefined();
  });

  it('normalises national numbers to E.164', () => {
    expect(toE164('HK', '91234567')).toEqual({ e164: '+85291234567', dialCode: '852' });
    expect(toE164('GB', '07700900123')).toEqual({ e164: '+447700900123', dialCode: '44' });
    expect(toE164('IT', '0612345678')).toEqual({ e164: '+390612345678', dialCode: '39' });
    expect(toE164('UM', '1234567')).toBeNull();
    expect(toE164('ZZ', '1234567')).toBeNull();
  });
});

describe('device description', () => {
  it('names browser and system', () => {
    expect(
      describeDevice(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0 Safari/537.36',
      ),
    ).toBe('Chrome · Windows');
    expect(describeDevice(null)).toBe('Unknown device');
  });
});
