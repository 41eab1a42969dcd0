import { toLocale } from '@meridian/contracts/locale';
import { useTranslation } from 'react-i18next';
import { useCountries } from '../../../lib/get-countries.ts';

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
  const { i18n } = useTranslation('kyc');
  const locale = toLocale(i18n.language);
  const countries = useCountries();
  const options: CountryOption[] = (countries.data ?? []).map((country) => ({
    value: country.code,
    label: locale === 'zh-HK' ? country.nameZh : country.nameEn,
  }));
  const nameOf = (code: string | undefined) => options.find((option) => option.value === code)?.label ?? code ?? '';
  return { options, isPending: countries.isPending, nameOf };
}
