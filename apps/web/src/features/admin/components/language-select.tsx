import { LOCALES } from '@meridian/contracts/locale';
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { changeLocale, LOCALE_LABELS, matchLocale } from '../../../lib/locale.ts';

/** The back office's language switch (en-US / zh-HK): stores the choice and reloads, as the customer app does. */
export function LanguageSelect() {
  const { t, i18n } = useTranslation('admin');
  const current = matchLocale(i18n.language) ?? 'en-US';
  return (
    <Select
      aria-label={t('layout.language')}
      size="middle"
      value={current}
      style={{ width: 120 }}
      options={LOCALES.map((locale) => ({ value: locale, label: LOCALE_LABELS[locale] }))}
      onChange={(locale) => {
        if (locale !== current) changeLocale(locale);
      }}
    />
  );
}
