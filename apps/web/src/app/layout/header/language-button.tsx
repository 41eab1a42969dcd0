import { useTranslation } from 'react-i18next';
import { GlobeIcon } from '../../../components/icons.tsx';
import { LOCALE_LABELS, matchLocale } from '../../../lib/locale.ts';
import { openLocaleModal } from '../../../stores/modal-store.ts';
import { requestOverlayHost } from '../../../stores/overlay-host-store.ts';

/** Opens the locale modal; shows the current language's own name. */
export function LanguageButton() {
  const { t, i18n } = useTranslation();
  const locale = matchLocale(i18n.language) ?? 'en-US';
  return (
    <button
      type="button"
      className="header-chip"
      data-testid="locale-picker"
      // The visible language name is part of the name (WCAG 2.5.3, axe label-content-name-mismatch).
      aria-label={`${t('header.language')}: ${LOCALE_LABELS[locale]}`}
      onPointerEnter={requestOverlayHost}
      onFocus={requestOverlayHost}
      onClick={openLocaleModal}
    >
      <GlobeIcon size={18} />
      <span lang={locale}>{LOCALE_LABELS[locale]}</span>
    </button>
  );
}
