import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';

/** A failed load: the server's message (or a generic one) and a retry button. */
export function QueryError({ error, onRetry }: { error: unknown; onRetry: () => void }) {
  const { t } = useTranslation('admin');
  const description = error instanceof ApiError && error.message ? error.message : undefined;
  return (
    <Alert
      type="error"
      showIcon
      title={t('common.loadFailed')}
      description={description}
      action={
        <Button size="small" onClick={onRetry}>
          {t('common.retry')}
        </Button>
      }
    />
  );
}
