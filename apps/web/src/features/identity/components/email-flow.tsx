import type { EmailFlowContent } from '@meridian/contracts/identity';
import { toLocale } from '@meridian/contracts/locale';
import type { CaptchaEvent } from '@meridian/contracts/security';
import { validationMessage } from '@meridian/contracts/validation';
import { Alert, Button, Form, Input } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { VerifyFields } from '../../../components/verify-fields.tsx';
import { type ApiResponse, isSuccess } from '../../../lib/api-client.ts';
import { applyServerErrors, STATUS_CAPTCHA_FAILED } from '../../../lib/form-errors.ts';
import { sendEmailCode } from '../../../lib/send-email-code.ts';
import { useForgetPassword } from '../api/forget-password.ts';
import { useRegisterAccount } from '../api/register-account.ts';
import { useResetPassword } from '../api/reset-password.ts';
import type { ActionFlowSlotProps, Step } from './action-flow-types.ts';
import { BackArrow } from './back-arrow.tsx';
import { HumanCheck, type HumanCheckHandle } from './human-check.tsx';
import { NewPasswordFields } from './new-password-fields.tsx';

interface EmailFlowValues {
  email: string;
  emailCaptcha: string;
  password: string;
  confirm: string;
}

const FLOW_EVENTS: Record<'register' | 'recover', CaptchaEvent> = {
  register: 'EMAIL_REGISTER',
  recover: 'FORGET_PASSWORD',
};

/**
 * Register and Recover: Mail (email and human check) → Verify (the emailed code) →
 * Password. A refused code on the Password step goes back to Verify; a 200 on it switches to Login.
 */
export function EmailFlow({ flow, onFlowChange }: ActionFlowSlotProps & { flow: 'register' | 'recover' }) {
  const { t, i18n } = useTranslation('identity');
  const locale = toLocale(i18n.language);
  const [form] = Form.useForm<EmailFlowValues>();
  const [steps, setSteps] = useState<Step[]>(['mail']);
  const [token, setToken] = useState<string | null>(null);
  const [ticket, setTicket] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const humanCheck = useRef<HumanCheckHandle>(null);
  const registerAccount = useRegisterAccount();
  const forgetPassword = useForgetPassword();
  const resetPassword = useResetPassword();
  const step = steps[steps.length - 1];
  const stepOne = flow === 'register' ? registerAccount.mutateAsync : forgetPassword.mutateAsync;

  const fail = (response: ApiResponse<unknown>) => {
    if (isSuccess(response)) return;
    // A refused code or ticket on the Password step sends the user back to enter a new code.
    if (response.statusCode === STATUS_CAPTCHA_FAILED && step === 'password') setSteps(['mail', 'verify']);
    setError(applyServerErrors(form, response, ['email', 'emailCaptcha', 'password', 'confirm']));
  };

  const submit = async () => {
    setError(null);
    setIsBusy(true);
    const values = form.getFieldsValue(true) as EmailFlowValues;
    let response: ApiResponse<EmailFlowContent>;
    if (step === 'mail') {
      response = await stepOne({ email: values.email, token: token ?? '' });
      humanCheck.current?.reset();
      if (isSuccess(response)) {
        setTicket(response.content.ticket);
        setSteps(['mail', 'verify']);
      }
    } else if (step === 'verify') {
      response = await stepOne({ email: values.email, ticket: ticket ?? '', emailCaptcha: values.emailCaptcha });
      if (isSuccess(response)) setSteps(['mail', 'verify', 'password']);
    } else {
      const body = {
        email: values.email,
        ticket: ticket ?? '',
        emailCaptcha: values.emailCaptcha,
        password: values.password,
        confirm: values.confirm,
      };
      response = flow === 'register' ? await registerAccount.mutateAsync(body) : await resetPassword.mutateAsync(body);
      // On success the modal switches to Login, saying what happened
      // and with the address filled in.
      if (isSuccess(response))
        onFlowChange('login', { email: values.email, notice: flow === 'register' ? 'registered' : 'passwordReset' });
    }
    setIsBusy(false);
    fail(response);
  };

  const required = { required: true, message: validationMessage('validation.required', locale) };
  return (
    <div data-testid={`${flow}-flow`} data-step={step}>
      <BackArrow steps={steps} onBack={() => setSteps(steps.slice(0, -1))} />
      <Form form={form} layout="vertical" requiredMark={false} onFinish={() => void submit()} preserve>
        {step === 'mail' && (
          <>
            <Form.Item
              label={t('fields.email')}
              name="email"
              rules={[required, { type: 'email', message: validationMessage('validation.email', locale) }]}
            >
              <Input data-testid="flow-email" autoComplete="username" autoFocus />
            </Form.Item>
            <HumanCheck onToken={setToken} handleRef={humanCheck} />
          </>
        )}
        {step === 'verify' && (
          <VerifyFields
            needs={{ email: true, mfa: false, security: false }}
            email={form.getFieldValue('email') ?? ''}
            onSendCode={() =>
              sendEmailCode(FLOW_EVENTS[flow], { email: form.getFieldValue('email'), ticket: ticket ?? '' })
            }
          />
        )}
        {step === 'password' && <NewPasswordFields flow={flow} locale={locale} />}
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} data-testid="flow-error" />}
        <Button
          type="primary"
          htmlType="submit"
          block
          size="large"
          loading={isBusy}
          disabled={step === 'mail' && !token}
          data-testid="flow-submit"
        >
          {step === 'password' ? t(flow === 'register' ? 'register.submit' : 'recover.submit') : t('next')}
        </Button>
        {flow === 'register' && step === 'mail' && (
          <Button type="link" block onClick={() => onFlowChange('login')} data-testid="to-login">
            {t('register.haveAccount')}
          </Button>
        )}
      </Form>
    </div>
  );
}
