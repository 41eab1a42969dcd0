import { LOCALES } from '@meridian/contracts/locale';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../components/app-modal.tsx';
import { changeLocale, LOCALE_LABELS, matchLocale } from '../../lib/locale.ts';
import { closeLocaleModal, useModalState } from '../../stores/modal-store.ts';

/** The language picker. Choosing another language stores it and reloads the page. */
export function LocaleModal() {
  const { t, i18n } = useTranslation();
  const { isLocaleOpen } = useModalState();
  const current = matchLocale(i18n.language);

  return (
    <AppModal open={isLocaleOpen} title={t('localeModal.title')} footer={null} onCancel={closeLocaleModal}>
      <div className="locale-options" data-testid="locale-modal">
        {LOCALES.map((locale) => {
          const isCurrent = locale === current;
          return (
            <button
              key={locale}
              type="button"
              lang={locale}
              className={`locale-option${isCurrent ? ' is-current' : ''}`}
              aria-pressed={isCurrent}
              data-testid={`locale-option-${locale}`}
              onClick={() => {
                if (isCurrent) closeLocaleModal();
                else changeLocale(locale);
              }}
            >
              <span className="locale-option__name">{LOCALE_LABELS[locale]}</span>
              <span className="locale-option__code">{locale}</span>
            </button>
          );
        })}
      </div>
    </AppModal>
  );
}
