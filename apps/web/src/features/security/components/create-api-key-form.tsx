import { API_KEY_IPS_MAX, API_KEYS_PER_USER_MAX } from '@meridian/contracts/api-keys';
import { API_KEY_SCOPES } from '@meridian/contracts/endpoint';
import { Alert, Button, Checkbox, Form, type FormInstance, Input, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { CreateApiKeyValues } from '../hooks/use-create-api-key.ts';

/**
 * The new API key form: label, scopes (read by default) and IP allowlist; Create is disabled
 * without the authenticator or once the user has the most keys allowed (`isFull`, said beside it).
 */
export function CreateApiKeyForm({
  form,
  error,
  hasAuthenticator,
  isFull,
  onCreate,
}: {
  form: FormInstance<CreateApiKeyValues>;
  error: string | null;
  hasAuthenticator: boolean;
  isFull: boolean;
  onCreate: (values: CreateApiKeyValues) => void;
}) {
  const { t } = useTranslation('identity');
  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      className="api-keys__form"
      initialValues={{ scopes: ['read'] }}
      onFinish={onCreate}
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
  );
}
