import {
  API_KEY_IPS_MAX,
  API_KEYS_PER_USER_MAX,
  apiKeyEndpoints,
  type ApiKey,
  type CreatedApiKey,
} from '@meridian/contracts/api-keys';
import { API_KEY_SCOPES, type ApiKeyScope } from '@meridian/contracts/endpoint';
import type { Envelope } from '@meridian/contracts/envelope';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Empty, Form, Input, List, Modal, Popconfirm, Skeleton, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageFrame } from '../../../components/page-frame.tsx';
import { RequireUser } from '../../../components/require-user.tsx';
import { pathTo } from '../../../config/paths.ts';
import { isSuccess } from '../../../lib/api-client.ts';
import { useSecurityConfig } from '../../../lib/get-security-config.ts';
import { useSecuredAction } from '../../../hooks/use-secured-action.ts';
import { deleteApiKey } from '../api/delete-api-key.ts';
import { apiKeysKey, useApiKeys } from '../api/get-api-keys.ts';
import { apiKeyFailure, parseIpList } from '../lib/api-key-form.ts';
import './account-pages.css';

const DATETIME = 'YYYY-MM-DD HH:mm';

interface CreateForm {
  label: string;
  scopes: ApiKeyScope[];
  /** Addresses or CIDR ranges, one per line (or separated by commas or spaces). */
  ipText?: string;
}

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
  const client = useQueryClient();
  const [form] = Form.useForm<CreateForm>();
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [error, setError] = useState<string | null>(null);
  const hasAuthenticator = (config.data?.mfa.length ?? 0) > 0;
  const isFull = (keys.data?.length ?? 0) >= API_KEYS_PER_USER_MAX;

  const showFailure = (response: Envelope<unknown>) => {
    const { fieldErrors, alert } = apiKeyFailure(response);
    if (fieldErrors.length > 0) form.setFields(fieldErrors);
    setError(alert);
  };

  const createKey = useSecuredAction({
    endpoint: apiKeyEndpoints.create,
    quietSuccess: true,
    onSuccess: (content) => {
      setCreated(content);
      form.resetFields();
      void client.invalidateQueries({ queryKey: apiKeysKey });
    },
    onRefusal: ({ response }) => showFailure(response),
  });

  const create = (values: CreateForm) => {
    setError(null);
    createKey.run({ body: { label: values.label, scopes: values.scopes, ipAllowlist: parseIpList(values.ipText) } });
  };

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
        <Form
          form={form}
          layout="vertical"
          requiredMark={false}
          className="api-keys__form"
          initialValues={{ scopes: ['read'] }}
          onFinish={create}
          data-testid="api-key-form"
        >
          <Typography.Title level={5}>{t('apiKeys.createTitle')}</Typography.Title>
          <Form.Item
            name="label"
            label={t('apiKeys.label')}
            rules={[{ required: true, whitespace: true, max: 40, message: t('apiKeys.labelRule') }]}
          >
            <Input maxLength={40} placeholder={t('apiKeys.labelPlaceholder')} data-testid="api-key-label" />
          </Form.Item>
          <Form.Item
            name="scopes"
            label={t('apiKeys.scopes')}
            rules={[{ required: true, type: 'array', min: 1, message: t('apiKeys.scopesRule') }]}
          >
            <Checkbox.Group className="api-keys__scopes">
              {API_KEY_SCOPES.map((scope) => (
                <Checkbox key={scope} value={scope} data-testid={`api-key-scope-${scope}`}>
                  <strong>{t(`apiKeys.scope.${scope}`)}</strong>
                  <span className="api-keys__scope-hint">{t(`apiKeys.scopeHint.${scope}`)}</span>
                </Checkbox>
              ))}
            </Checkbox.Group>
          </Form.Item>
          <Form.Item
            name="ipText"
            label={t('apiKeys.ipAllowlist')}
            extra={t('apiKeys.ipAllowlistHint', { max: API_KEY_IPS_MAX })}
          >
            <Input.TextArea rows={2} placeholder="203.0.113.7, 198.51.100.0/24" data-testid="api-key-ips" />
          </Form.Item>
          {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
          <Button type="primary" htmlType="submit" disabled={!hasAuthenticator || isFull} data-testid="api-key-create">
            {t('apiKeys.create')}
          </Button>
          {isFull && (
            <Typography.Text type="secondary" className="api-keys__full">
              {t('apiKeys.full', { max: API_KEYS_PER_USER_MAX })}
            </Typography.Text>
          )}
        </Form>

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
      <Modal
        open={created !== null}
        title={t('apiKeys.createdTitle')}
        onCancel={() => setCreated(null)}
        footer={
          <Button type="primary" onClick={() => setCreated(null)} data-testid="api-key-created-done">
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
    </PageFrame>
  );
}

/** One key: name, prefix, scopes, allowlist, created and last used; delete after a confirmation. */
function ApiKeyItem({ apiKey }: { apiKey: ApiKey }) {
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
