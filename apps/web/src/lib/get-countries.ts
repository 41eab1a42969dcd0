import { identityEndpoints } from '@meridian/contracts/identity';
import { toLocale } from '@meridian/contracts/locale';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { callEndpoint, unwrap } from './api-client.ts';
import { identityKeys } from './identity-keys.ts';

/**
 * `GET user/country/list` (`identityEndpoints.listCountries`, silent): the countries the server
 * accepts (nationality, residence, bank country, mobile calling codes), named in both languages.
 */
export async function getCountries() {
  return unwrap(await callEndpoint(identityEndpoints.listCountries, {}, { silent: true }));
}

/** The country list, one cache entry for every feature (never stale within a visit). */
export function useCountries() {
  return useQuery({ queryKey: identityKeys.countries, staleTime: Infinity, queryFn: getCountries });
}

/** One country as a select option: `value` the ISO code, `label` its name in the UI's language. */
export interface CountryOption {
  value: string;
  label: string;
}

/**
 * The countries as select options named in the UI's language (Chinese names for zh-HK), whether they
 * are still loading, and `nameOf(code)`: a code's name, else the code itself ('' for none).
 */
export function useCountryOptions() {
  const { i18n } = useTranslation();
  const locale = toLocale(i18n.language);
  const countries = useCountries();
  const options: CountryOption[] = (countries.data ?? []).map((country) => ({
    value: country.code,
    label: locale === 'zh-HK' ? country.nameZh : country.nameEn,
  }));
  const nameOf = (code: string | undefined) => options.find((option) => option.value === code)?.label ?? code ?? '';
  return { options, isPending: countries.isPending, nameOf };
}
