import { toLocale } from '@meridian/contracts/locale';
import { validationMessage } from '@meridian/contracts/validation';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Select } from 'antd';
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
import { SendCodeButton } from '../../../components/send-code-button.tsx';
import { isMfaByPasskeyOnly, withPasskeyFactor } from '../../../lib/passkey.ts';
import { VerifyFields } from '../../../components/verify-fields.tsx';
import { type BindMobileBody, bindMobile } from '../api/bind-mobile.ts';
import { useCountries } from '../../../lib/get-countries.ts';
import { sendMobileCode } from '../api/send-mobile-code.ts';
import { dialCodeOptions, MOBILE_NUMBER_PATTERN } from '../lib/security-rules.ts';

/** `/my/security/enable-sms`: bind or change the mobile number (SMS code + email code + trade factors). */
export function EnableSmsPage() {
  return (
    <RequireUser>
      <PageFrame>
        <div className="content-card" data-testid="enable-sms-page">
          <MobileForm />
        </div>
      </PageFrame>
    </RequireUser>
  );
}

function MobileForm() {
  const { t, i18n } = useTranslation('identity');
  const locale = toLocale(i18n.language);
  const countries = useCountries();
  const config = useSecurityConfig();
  const self = useSelf();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [form] = Form.useForm();
  const [error, setError] = useState<string | null>(null);
  const required = { required: true, message: validationMessage('validation.required', locale) };
  const options = dialCodeOptions(countries.data ?? [], locale);
  const isMfaNeeded = config.data?.trade.mfa === 1;
  const isPasskeyOnly = isMfaByPasskeyOnly(isMfaNeeded, config.data?.mfa);
  const submit = async (entered: BindMobileBody) => {
    setError(null);
    // The mfa factor of an account whose only method is a passkey: the passkey is asked for here.
    const withFactor = isPasskeyOnly ? await withPasskeyFactor(entered, t('passkeys.cancelled')) : { values: entered };
    if ('error' in withFactor) {
      setError(withFactor.error);
      return;
    }
    const values = withFactor.values;
    const response = await bindMobile(values);
    if (isSuccess(response)) {
      queryClient.setQueryData(identityKeys.config, response.content);
      await queryClient.invalidateQueries({ queryKey: identityKeys.self });
      void navigate(pathTo('Security'));
      return;
    }
    setError(
      applyServerErrors(form, response, [
        'mobileCountry',
        'mobile',
        'smsCaptcha',
        'emailCaptcha',
        'mfaCode',
        'securityPassword',
      ]),
    );
  };
  const sendSms = async () => {
    const values = await form.validateFields(['mobileCountry', 'mobile']).catch(() => null);
    if (!values) return 0;
    const response = await sendMobileCode(values);
    if (!isSuccess(response)) setError(applyServerErrors(form, response, ['mobileCountry', 'mobile']));
    return response.statusCode;
  };
  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={(values) => void submit(values)}
      style={{ maxWidth: 420 }}
      initialValues={{ mobileCountry: 'HK' }}
    >
      <Form.Item label={t('mobile.country')} name="mobileCountry" rules={[required]}>
        <Select showSearch optionFilterProp="label" options={options} loading={countries.isLoading} />
      </Form.Item>
      <Form.Item
        label={t('mobile.number')}
        name="mobile"
        rules={[required, { pattern: MOBILE_NUMBER_PATTERN, message: validationMessage('validation.mobile', locale) }]}
      >
        <Input inputMode="tel" autoComplete="tel-national" />
      </Form.Item>
      {/* The label names the inner item's input (its id is the field name). */}
      <Form.Item label={t('mobile.smsCode')} htmlFor="smsCaptcha">
        <div style={{ display: 'flex', gap: 8 }}>
          <Form.Item
            name="smsCaptcha"
            noStyle
            rules={[
              { required: true, message: validationMessage('validation.smsCode', locale) },
              { pattern: /^\d{6}$/, message: validationMessage('validation.code6', locale) },
            ]}
          >
            <Input inputMode="numeric" maxLength={6} autoComplete="one-time-code" />
          </Form.Item>
          <SendCodeButton onSend={sendSms} testId="sms-send-code" />
        </div>
      </Form.Item>
      <VerifyFields
        needs={{ email: true, mfa: isMfaNeeded && !isPasskeyOnly, security: config.data?.trade.security === 1 }}
        email={self.data?.email ?? ''}
        onSendCode={() => sendEmailCode('MOBILE_BIND')}
      />
      {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} />}
      <Button type="primary" htmlType="submit">
        {t('mobile.submit')}
      </Button>
    </Form>
  );
}
