import { toLocale } from '@meridian/contracts/locale';
import { validationMessage } from '@meridian/contracts/validation';
import { Alert, Button, Form, Input, Result } from 'antd';
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
import { type ChangePasswordBody, changePassword } from '../api/change-password.ts';
import { newPasswordProblem, passwordConfirmProblem } from '../lib/security-rules.ts';

/** `/my/security/password`: change the login password (other sessions are signed out). */
export function ResetPassPage() {
  return (
    <RequireUser>
      <PageFrame>
        <div className="content-card" data-testid="password-page">
          <PasswordForm />
        </div>
      </PageFrame>
    </RequireUser>
  );
}

function PasswordForm() {
  const { t, i18n } = useTranslation('identity');
  const locale = toLocale(i18n.language);
  const config = useSecurityConfig();
  const self = useSelf();
  const [form] = Form.useForm();
  const [error, setError] = useState<string | null>(null);
  const [isDone, setIsDone] = useState(false);
  const required = { required: true, message: validationMessage('validation.required', locale) };
  const submit = async (values: ChangePasswordBody) => {
    setError(null);
    const response = await changePassword(values);
    if (isSuccess(response)) setIsDone(true);
    else setError(applyServerErrors(form, response, ['oldPassword', 'password', 'confirm', 'emailCaptcha', 'mfaCode']));
  };
  if (isDone) return <Result status="success" title={t('password.changed')} subTitle={t('password.changedHint')} />;
  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={(values) => void submit(values)}
      style={{ maxWidth: 420 }}
    >
      <Form.Item label={t('password.old')} name="oldPassword" rules={[required]}>
        <Input.Password autoComplete="current-password" autoFocus />
      </Form.Item>
      <Form.Item
        label={t('fields.newPassword')}
        name="password"
        rules={[
          required,
          {
            validator: async (_, value: string) => {
              const problem = newPasswordProblem(value);
              if (problem) throw new Error(validationMessage(problem, locale));
            },
          },
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        label={t('fields.confirm')}
        name="confirm"
        dependencies={['password']}
        rules={[
          required,
          ({ getFieldValue }) => ({
            validator: async (_, value: string) => {
              const problem = passwordConfirmProblem(getFieldValue('password'), value);
              if (problem) throw new Error(validationMessage(problem, locale));
            },
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <VerifyFields
        needs={{ email: true, mfa: config.data?.mfa.includes('google') ?? false, security: false }}
        email={self.data?.email ?? ''}
        onSendCode={() => sendEmailCode('PASSWORD_CHANGE')}
      />
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
      <Button type="primary" htmlType="submit">
        {t('password.submit')}
      </Button>
    </Form>
  );
}
