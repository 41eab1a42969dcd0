import { API_KEYS_PER_USER_MAX } from '@meridian/contracts/api-keys';
import { Alert, Empty, Form, List, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageFrame } from '../../../components/page-frame.tsx';
import { RequireUser } from '../../../components/require-user.tsx';
import { pathTo } from '../../../config/paths.ts';
import { useSecurityConfig } from '../../../lib/get-security-config.ts';
import { useApiKeys } from '../api/get-api-keys.ts';
import { ApiKeyItem } from '../components/api-key-item.tsx';
import { CreateApiKeyForm } from '../components/create-api-key-form.tsx';
import { CreatedApiKeyModal } from '../components/created-api-key-modal.tsx';
import { type CreateApiKeyValues, useCreateApiKey } from '../hooks/use-create-api-key.ts';
import './account-pages.css';

/**
 * `/my/security/api-keys`: the user's API keys with their scopes, IP
 * allowlist and last use; a new key needs the security check with the authenticator, and its secret
 * is shown once, with copy buttons; deleting a key stops it at once. Keys need the authenticator:
 * without it the page says so and links to binding it.
 */
export function ApiKeysPage() {
  return (
    <RequireUser>
      <ApiKeysContent />
    </RequireUser>
  );
}

function ApiKeysContent() {
  const { t } = useTranslation('identity');
  const config = useSecurityConfig();
  const keys = useApiKeys();
  const [form] = Form.useForm<CreateApiKeyValues>();
  const createKey = useCreateApiKey(form);
  const hasAuthenticator = (config.data?.mfa.length ?? 0) > 0;
  const isFull = (keys.data?.length ?? 0) >= API_KEYS_PER_USER_MAX;

  return (
    <PageFrame>
      <div className="content-card api-keys" data-testid="api-keys-page">
        <Typography.Paragraph type="secondary">{t('apiKeys.intro')}</Typography.Paragraph>
        {config.data && !hasAuthenticator && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            message={t('apiKeys.needsAuthenticator')}
            action={
              <Link to={pathTo('GoogleAuthenticators')} data-testid="api-keys-bind-authenticator">
                {t('security.bind')}
              </Link>
            }
          />
        )}
        <CreateApiKeyForm
          form={form}
          error={createKey.error}
          hasAuthenticator={hasAuthenticator}
          isFull={isFull}
          onCreate={createKey.create}
        />
        <Typography.Title level={5} style={{ marginTop: 24 }}>
          {t('apiKeys.listTitle')}
        </Typography.Title>
        {keys.isPending ? (
          <Skeleton active />
        ) : (
          <List
            dataSource={keys.data ?? []}
            locale={{ emptyText: <Empty description={t('apiKeys.empty')} /> }}
            renderItem={(key) => <ApiKeyItem apiKey={key} />}
            data-testid="api-key-list"
          />
        )}
      </div>
      <CreatedApiKeyModal created={createKey.created} onClose={createKey.dismiss} />
    </PageFrame>
  );
}
