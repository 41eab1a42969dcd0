import type { CreatedApiKey } from '@meridian/contracts/api-keys';
import { Alert, Button, Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/** The key just created, shown once: its id and secret with copy buttons; closed by Done only. */
export function CreatedApiKeyModal({ created, onClose }: { created: CreatedApiKey | null; onClose: () => void }) {
  const { t } = useTranslation('identity');
  return (
    <Modal
      open={created !== null}
      title={t('apiKeys.createdTitle')}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose} data-testid="api-key-created-done">
          {t('apiKeys.createdDone')}
        </Button>
      }
      maskClosable={false}
    >
      {created && (
        <div data-testid="api-key-created">
          <Alert type="warning" showIcon message={t('apiKeys.secretOnce')} style={{ marginBottom: 16 }} />
          <div className="api-keys__secret-label">{t('apiKeys.keyId')}</div>
          <Typography.Paragraph copyable={{ text: created.apiKey }} code data-testid="api-key-created-id">
            {created.apiKey}
          </Typography.Paragraph>
          <div className="api-keys__secret-label">{t('apiKeys.secret')}</div>
          <Typography.Paragraph copyable={{ text: created.secret }} code data-testid="api-key-created-secret">
            {created.secret}
          </Typography.Paragraph>
        </div>
      )}
    </Modal>
  );
}
