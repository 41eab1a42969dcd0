import { toLocale } from '@meridian/contracts/locale';
import { validationMessage } from '@meridian/contracts/validation';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Result, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../../components/page-frame.tsx';
import { isSuccess } from '../../../lib/api-client.ts';
import { useSecurityConfig } from '../../../lib/get-security-config.ts';
import { useSelf } from '../../../lib/get-self.ts';
import { sendEmailCode } from '../../../lib/send-email-code.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import { RequireUser } from '../../../components/require-user.tsx';
import { VerifyFields } from '../../../components/verify-fields.tsx';
import { type BindMfaBody, bindMfa } from '../api/bind-mfa.ts';
import { useMfaKey } from '../api/get-mfa-key.ts';
import { type UnbindMfaBody, unbindMfa } from '../api/unbind-mfa.ts';
import { authenticatorNeeds, authenticatorStep } from '../lib/security-rules.ts';

/** `/my/security/google-authenticator`: bind (scan, confirm, keep the recovery codes) or unbind. */
export function GoogleAuthenticatorPage() {
  return (
    <RequireUser>
      <PageFrame>
        <div className="content-card" data-testid="google-authenticator-page">
          <GoogleAuthenticator />
        </div>
      </PageFrame>
    </RequireUser>
  );
}

function GoogleAuthenticator() {
  const config = useSecurityConfig();
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const step = authenticatorStep(config.data, recoveryCodes);
  if (step === 'recovery-codes') return <RecoveryCodes codes={recoveryCodes ?? []} />;
  if (step === 'loading') return <Spin />;
  return step === 'unbind' ? <UnbindForm /> : <BindForm onBound={setRecoveryCodes} />;
}

function BindForm({ onBound }: { onBound: (codes: string[]) => void }) {
  const { t, i18n } = useTranslation('identity');
  const locale = toLocale(i18n.language);
  const config = useSecurityConfig();
  const key = useMfaKey(true);
  const self = useSelf();
  const queryClient = useQueryClient();
  const [form] = Form.useForm();
  const [error, setError] = useState<string | null>(null);
  const submit = async (values: BindMfaBody) => {
    setError(null);
    const response = await bindMfa(values);
    if (isSuccess(response)) {
      await queryClient.invalidateQueries({ queryKey: ['identity'] });
      onBound(response.content.recoveryCodes);
      return;
    }
    setError(applyServerErrors(form, response, ['mfaCode', 'emailCaptcha', 'securityPassword']));
  };
  if (!key.data) return <Spin />;
  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={(values) => void submit(values)}
      style={{ maxWidth: 420 }}
    >
      <Typography.Paragraph>{t('google.step1')}</Typography.Paragraph>
      {key.data.qrDataUrl && (
        <img src={key.data.qrDataUrl} alt={t('google.qrAlt')} width={200} height={200} data-testid="mfa-qr" />
      )}
      <Typography.Paragraph>
        {t('google.secret')}{' '}
        <Typography.Text code copyable data-testid="mfa-secret">
          {key.data.secret}
        </Typography.Text>
      </Typography.Paragraph>
      <Typography.Paragraph>{t('google.step2')}</Typography.Paragraph>
      <Form.Item
        label={t('verify.mfaCode')}
        name="mfaCode"
        rules={[
          { required: true, message: validationMessage('validation.mfaCode', locale) },
          { pattern: /^\d{6}$/, message: validationMessage('validation.code6', locale) },
        ]}
      >
        <Input data-testid="mfa-code" inputMode="numeric" maxLength={6} autoComplete="one-time-code" />
      </Form.Item>
      <VerifyFields
        needs={authenticatorNeeds(config.data, 'bind')}
        email={self.data?.email ?? ''}
        onSendCode={() => sendEmailCode('MFA_ADD')}
      />
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
      <Button type="primary" htmlType="submit" data-testid="mfa-bind">
        {t('google.bind')}
      </Button>
    </Form>
  );
}

function RecoveryCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation('identity');
  return (
    <Result
      status="success"
      title={t('google.bound')}
      subTitle={t('google.recoveryHint')}
      extra={
        <pre data-testid="recovery-codes" style={{ textAlign: 'left', display: 'inline-block' }}>
          {codes.join('\n')}
        </pre>
      }
    />
  );
}

/**
 * Unbind: the email code (`MFA_REMOVE`), the security password when trading asks for it, and the
 * authenticator's code — or, for a lost phone, one of the recovery codes (sent as `recoveryCode`).
 */
function UnbindForm() {
  const { t, i18n } = useTranslation('identity');
  const locale = toLocale(i18n.language);
  const self = useSelf();
  const config = useSecurityConfig();
  const queryClient = useQueryClient();
  const [form] = Form.useForm();
  const [error, setError] = useState<string | null>(null);
  const [isRecoveryCode, setIsRecoveryCode] = useState(false);
  const submit = async ({ mfaCode, recoveryCode, ...values }: UnbindMfaBody) => {
    setError(null);
    const response = await unbindMfa({ ...values, ...(isRecoveryCode ? { recoveryCode } : { mfaCode }) });
    if (isSuccess(response)) {
      await queryClient.invalidateQueries({ queryKey: ['identity'] });
      return;
    }
    setError(applyServerErrors(form, response, ['mfaCode', 'recoveryCode', 'emailCaptcha', 'securityPassword']));
  };
  const needs = authenticatorNeeds(config.data, 'unbind');
  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={(values) => void submit(values)}
      style={{ maxWidth: 420 }}
    >
      <Alert type="info" showIcon message={t('google.isBound')} style={{ marginBottom: 16 }} />
      <VerifyFields
        needs={{ ...needs, mfa: needs.mfa && !isRecoveryCode }}
        email={self.data?.email ?? ''}
        onSendCode={() => sendEmailCode('MFA_REMOVE')}
      />
      {isRecoveryCode && (
        <Form.Item
          label={t('verify.recoveryCode')}
          name="recoveryCode"
          rules={[{ required: true, message: validationMessage('validation.required', locale) }]}
        >
          <Input data-testid="recovery-code" placeholder="ABCDE-FGHIJ" autoComplete="off" />
        </Form.Item>
      )}
      <Button
        type="link"
        style={{ padding: 0, marginBottom: 12, display: 'block' }}
        data-testid="toggle-recovery"
        onClick={() => setIsRecoveryCode(!isRecoveryCode)}
      >
        {isRecoveryCode ? t('verify.useAuthenticator') : t('verify.useRecoveryCode')}
      </Button>
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
      <Button danger htmlType="submit" data-testid="mfa-unbind">
        {t('google.unbind')}
      </Button>
      <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
        {t('google.lostDevice')}
      </Typography.Paragraph>
    </Form>
  );
}
