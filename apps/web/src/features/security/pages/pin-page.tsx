import { toLocale } from '@meridian/contracts/locale';
import { validationMessage } from '@meridian/contracts/validation';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Spin } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageFrame } from '../../../components/page-frame.tsx';
import { pathTo } from '../../../config/paths.ts';
import { isSuccess } from '../../../lib/api-client.ts';
import { useSecurityConfig } from '../../../lib/get-security-config.ts';
import { useSelf } from '../../../lib/get-self.ts';
import { identityKeys } from '../../../lib/identity-keys.ts';
import { sendEmailCode } from '../../../lib/send-email-code.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import { RequireUser } from '../../../components/require-user.tsx';
import { VerifyFields } from '../../../components/verify-fields.tsx';
import { type SetSecurityPasswordBody, setSecurityPassword } from '../api/set-security-password.ts';
import { SECURITY_PASSWORD_PATTERN, securityPasswordConfirmProblem } from '../lib/security-rules.ts';

/** `/my/security/pin`: set or change the 6-digit security code (trading password). */
export function SetPinPage() {
  return (
    <RequireUser>
      <PageFrame>
        <div className="content-card" data-testid="pin-page">
          <PinForm />
        </div>
      </PageFrame>
    </RequireUser>
  );
}

function PinForm() {
  const { t, i18n } = useTranslation('identity');
  const locale = toLocale(i18n.language);
  const config = useSecurityConfig();
  const self = useSelf();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [form] = Form.useForm();
  const [error, setError] = useState<string | null>(null);
  if (!config.data) return <Spin />;
  const isChange = config.data.security === 1;
  const sixDigits = [
    { required: true, message: validationMessage('validation.required', locale) },
    { pattern: SECURITY_PASSWORD_PATTERN, message: validationMessage('validation.code6', locale) },
  ];
  const submit = async (values: SetSecurityPasswordBody) => {
    setError(null);
    const response = await setSecurityPassword(values);
    if (isSuccess(response)) {
      queryClient.setQueryData(identityKeys.config, response.content);
      void navigate(pathTo('Security'));
      return;
    }
    setError(
      applyServerErrors(form, response, [
        'newSecurityPassword',
        'confirm',
        'emailCaptcha',
        'mfaCode',
        'securityPassword',
      ]),
    );
  };
  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={(values) => void submit(values)}
      style={{ maxWidth: 420 }}
    >
      <Form.Item label={t('pin.new')} name="newSecurityPassword" rules={sixDigits}>
        <Input.Password data-testid="pin-new" inputMode="numeric" maxLength={6} autoFocus />
      </Form.Item>
      <Form.Item
        label={t('pin.confirm')}
        name="confirm"
        dependencies={['newSecurityPassword']}
        rules={[
          ...sixDigits,
          ({ getFieldValue }) => ({
            validator: async (_, value: string) => {
              const problem = securityPasswordConfirmProblem(getFieldValue('newSecurityPassword'), value);
              if (problem) throw new Error(validationMessage(problem, locale));
            },
          }),
        ]}
      >
        <Input.Password data-testid="pin-confirm" inputMode="numeric" maxLength={6} />
      </Form.Item>
      <VerifyFields
        needs={{ email: true, mfa: config.data.mfa.includes('google'), security: isChange }}
        email={self.data?.email ?? ''}
        onSendCode={() => sendEmailCode('SECURITY_PASSWORD')}
      />
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
      <Button type="primary" htmlType="submit" data-testid="pin-submit">
        {isChange ? t('pin.change') : t('pin.set')}
      </Button>
    </Form>
  );
}
