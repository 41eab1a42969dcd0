import { useTranslation } from 'react-i18next';

/** The empty message centre's text: no messages yet, and where they will come from. */
export function MessagesEmptyText() {
  const { t } = useTranslation('notices');
  return (
    <span className="messages__empty-text">
      <strong>{t('page.empty')}</strong>
      <span>{t('page.emptyHint')}</span>
    </span>
  );
}
