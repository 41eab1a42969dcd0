import { securityEndpoints } from '@meridian/contracts/identity';
import { toLocale } from '@meridian/contracts/locale';
import { validationMessage } from '@meridian/contracts/validation';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isSuccess } from '../../../lib/api-client.ts';
import { useSecuredAction } from '../../../hooks/use-secured-action.ts';
import { identityKeys } from '../../../lib/identity-keys.ts';
import { applyServerErrors, STATUS_CAPTCHA_FAILED } from '../../../lib/form-errors.ts';
import { SendCodeButton } from '../../../components/send-code-button.tsx';
import { sendNewEmailCode } from '../api/send-new-email-code.ts';

interface ChangeEmailValues {
  email: string;
  newEmailCaptcha: string;
}

/**
 * Change the account's email (security page): the new address and the code sent to it (send →
 * 59 s countdown → resend), then the security check (`EMAIL_CHANGE` code to the current address and
 * the trade factors). The server signs out other devices and holds withdrawals for 72 hours.
 */
export function ChangeEmailSection() {
  const { t, i18n } = useTranslation('identity');
  const locale = toLocale(i18n.language);
  const queryClient = useQueryClient();
  const [form] = Form.useForm<ChangeEmailValues>();
  const [error, setError] = useState<string | null>(null);
  const [changedTo, setChangedTo] = useState<string | null>(null);
  const sentEmail = useRef('');
  const changeEmail = useSecuredAction({
    endpoint: securityEndpoints.changeEmail,
    // The service checks the factors itself (the route declares no sensitiveAction): the event is named here.
    event: 'EMAIL_CHANGE',
    onSuccess: () => {
      setChangedTo(sentEmail.current);
      form.resetFields();
      void queryClient.invalidateQueries({ queryKey: identityKeys.self });
      void queryClient.invalidateQueries({ queryKey: identityKeys.config });
      void queryClient.invalidateQueries({ queryKey: identityKeys.sessions });
    },
    onRefusal: ({ statusCode }) => {
      if (statusCode === STATUS_CAPTCHA_FAILED) setError(t('changeEmail.codeFailed'));
    },
  });

  const sendCode = async () => {
    setError(null);
    const values = await form.validateFields(['email']).catch(() => null);
    if (!values) return 0;
    const response = await sendNewEmailCode({ email: values.email });
    if (!isSuccess(response)) setError(applyServerErrors(form, response, ['email']));
    return response.statusCode;
  };

  const submit = (values: ChangeEmailValues) => {
    setError(null);
    setChangedTo(null);
    const email = values.email.trim().toLowerCase();
    sentEmail.current = email;
    changeEmail.run({ body: { email, newEmailCaptcha: values.newEmailCaptcha } });
  };

  return (
    <div data-testid="change-email" style={{ marginTop: 24, maxWidth: 420 }}>
      <Typography.Title level={5}>{t('changeEmail.title')}</Typography.Title>
      <Typography.Paragraph type="secondary">{t('changeEmail.hint')}</Typography.Paragraph>
      {changedTo && (
        <Alert
          type="success"
          showIcon
          style={{ marginBottom: 12 }}
          message={t('changeEmail.changed', { email: changedTo })}
          description={t('changeEmail.changedHint')}
        />
      )}
      <Form form={form} layout="vertical" requiredMark={false} onFinish={submit}>
        <Form.Item
          label={t('changeEmail.newEmail')}
          name="email"
          rules={[
            { required: true, message: validationMessage('validation.required', locale) },
            { type: 'email', message: validationMessage('validation.email', locale) },
          ]}
        >
          <Input data-testid="change-email-input" type="email" autoComplete="email" />
        </Form.Item>
        <Form.Item label={t('changeEmail.newEmailCode')}>
          <div style={{ display: 'flex', gap: 8 }}>
            <Form.Item
              name="newEmailCaptcha"
              noStyle
              rules={[
                { required: true, message: validationMessage('validation.emailCode', locale) },
                { pattern: /^\d{6}$/, message: validationMessage('validation.code6', locale) },
              ]}
            >
              <Input
                data-testid="change-email-code"
                inputMode="numeric"
                maxLength={6}
                autoComplete="one-time-code"
                placeholder={t('verify.codePlaceholder')}
              />
            </Form.Item>
            <SendCodeButton onSend={sendCode} testId="change-email-send-code" />
          </div>
        </Form.Item>
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
        <Button type="primary" htmlType="submit" data-testid="change-email-submit">
          {t('changeEmail.submit')}
        </Button>
      </Form>
    </div>
  );
}
