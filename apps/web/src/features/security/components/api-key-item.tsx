import type { ApiKey } from '@meridian/contracts/api-keys';
import { useQueryClient } from '@tanstack/react-query';
import { Button, List, Popconfirm, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { isSuccess } from '../../../lib/api-client.ts';
import { deleteApiKey } from '../api/delete-api-key.ts';
import { apiKeysKey } from '../api/get-api-keys.ts';

const DATETIME = 'YYYY-MM-DD HH:mm';

/** One key: name, prefix, scopes, allowlist, created and last used; delete after a confirmation. */
export function ApiKeyItem({ apiKey }: { apiKey: ApiKey }) {
  const { t } = useTranslation('identity');
  const client = useQueryClient();
  const remove = async () => {
    const response = await deleteApiKey(apiKey.id);
    if (isSuccess(response)) await client.invalidateQueries({ queryKey: apiKeysKey });
  };
  return (
    <List.Item className="api-key" data-testid="api-key-item">
      <div className="api-key__body">
        <div className="api-key__head">
          <span className="api-key__title">
            <Typography.Text strong>{apiKey.label}</Typography.Text>
            <Typography.Text code>{apiKey.keyPrefix}…</Typography.Text>
          </span>
          <Popconfirm
            title={t('apiKeys.deleteConfirm')}
            okText={t('apiKeys.delete')}
            cancelText={t('apiKeys.cancel')}
            okButtonProps={{ danger: true }}
            onConfirm={remove}
          >
            <Button size="small" danger data-testid="api-key-delete">
              {t('apiKeys.delete')}
            </Button>
          </Popconfirm>
        </div>
        <dl className="api-key__facts">
          <dt>{t('apiKeys.scopes')}</dt>
          <dd>
            {apiKey.scopes.map((scope) => (
              <Tag key={scope} color={scope === 'withdraw' ? 'orange' : scope === 'trade' ? 'blue' : 'default'}>
                {t(`apiKeys.scope.${scope}`)}
              </Tag>
            ))}
          </dd>
          <dt>{t('apiKeys.ipAllowlist')}</dt>
          <dd>{apiKey.ipAllowlist.length > 0 ? apiKey.ipAllowlist.join(', ') : t('apiKeys.anyIp')}</dd>
          <dt>{t('apiKeys.createdAt')}</dt>
          <dd>{dayjs(apiKey.createdAt).format(DATETIME)}</dd>
          <dt>{t('apiKeys.lastUsed')}</dt>
          <dd>
            {apiKey.lastUsedAt
              ? `${dayjs(apiKey.lastUsedAt).format(DATETIME)}${apiKey.lastUsedIp ? ` · ${apiKey.lastUsedIp}` : ''}`
              : t('apiKeys.neverUsed')}
          </dd>
        </dl>
      </div>
    </List.Item>
  );
}
