import { ArrowLeftOutlined } from '@ant-design/icons';
import type { EmailFlowContent } from '@meridian/contracts/identity';
import { toLocale } from '@meridian/contracts/locale';
import type { CaptchaEvent } from '@meridian/contracts/security';
import { validationMessage } from '@meridian/contracts/validation';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Form, Input } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isSuccess, type ApiResponse } from '../../../lib/api-client.ts';
import { setUserId } from '../../../lib/session.ts';
import type { ActionFlow } from '../../../stores/modal-store.ts';
import { identityApi, identityKeys } from '../../../lib/identity-api.ts';
import { applyServerErrors, STATUS_CAPTCHA_FAILED } from '../../../lib/form-errors.ts';
import { HumanCheck, type HumanCheckHandle } from './human-check.tsx';
import { VerifyFields, type VerifyNeeds } from '../../../components/verify-fields.tsx';

export interface ActionFlowSlotProps {
  flow: ActionFlow;
  /** Where to go after a successful login. */
  returnTo?: string;
  /** Switch the modal to another flow (Login → Recover, Register → Login). */
  onFlowChange: (flow: ActionFlow) => void;
  /** Close the modal (after success, or when the flow is abandoned). */
  onDone: () => void;
}

/**
 * The body of the action modal (spec §2, §4): Login (Form → optional Verify), Register and Recover
 * (Mail → Verify → Password). Each flow is its own component, so switching flows starts afresh.
 */
export function ActionFlowSlot(props: ActionFlowSlotProps) {
  if (props.flow === 'login') return <LoginFlow key="login" {...props} />;
  return <EmailFlow key={props.flow} {...props} flow={props.flow} />;
}

type Step = 'form' | 'mail' | 'verify' | 'password';

/** Back arrow: shown when rollback is allowed and more than one step is open (spec §2). */
function BackArrow({ steps, onBack }: { steps: Step[]; onBack: () => void }) {
  const { t } = useTranslation('identity');
  if (steps.length < 2) return null;
  return <Button type="text" icon={<ArrowLeftOutlined />} aria-label={t('back')} data-testid="flow-back" onClick={onBack} style={{ marginBottom: 8 }} />;
}

interface LoginValues {
  email: string;
  password: string;
  emailCaptcha?: string;
  mfaCode?: string;
  recoveryCode?: string;
}

function LoginFlow({ returnTo, onFlowChange, onDone }: ActionFlowSlotProps) {
  const { t, i18n } = useTranslation('identity');
  const locale = toLocale(i18n.language);
  const [form] = Form.useForm<LoginValues>();
  const [steps, setSteps] = useState<Step[]>(['form']);
  const [token, setToken] = useState<string | null>(null);
  const [ticket, setTicket] = useState<string | null>(null);
  const [needs, setNeeds] = useState<VerifyNeeds>({ email: false, mfa: false, security: false });
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const [isRecoveryCode, setIsRecoveryCode] = useState(false);
  const humanCheck = useRef<HumanCheckHandle>(null);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const step = steps[steps.length - 1];

  /** Sign-in (spec §4): store the account id, load user and security config (and balances), close. */
  const signIn = async (accountId: string) => {
    setUserId(accountId);
    await queryClient.invalidateQueries();
    await Promise.all([
      queryClient.prefetchQuery({ queryKey: identityKeys.self, queryFn: async () => (await identityApi.self()).content }),
      queryClient.prefetchQuery({ queryKey: identityKeys.config, queryFn: async () => (await identityApi.config()).content }),
    ]);
    onDone();
    if (returnTo) void navigate(returnTo);
  };

  const submit = async (values: LoginValues) => {
    setError(null);
    setIsBusy(true);
    const { email, password } = { ...form.getFieldsValue(true), ...values } as LoginValues;
    const response =
      step === 'form'
        ? await identityApi.login({ email, password, token: token ?? '' })
        : await identityApi.login({
            email,
            password,
            ticket: ticket ?? '',
            emailCaptcha: values.emailCaptcha,
            ...(isRecoveryCode ? { recoveryCode: values.recoveryCode } : { mfaCode: values.mfaCode }),
          });
    setIsBusy(false);
    if (step === 'form') humanCheck.current?.reset();
    if (!isSuccess(response)) {
      setError(applyServerErrors(form, response, ['email', 'password', 'emailCaptcha', 'mfaCode', 'recoveryCode']));
      return;
    }
    if (response.content.accountId) {
      await signIn(response.content.accountId);
      return;
    }
    setTicket(response.content.ticket);
    setNeeds({ email: response.content.email, mfa: response.content.mfa, security: false });
    setSteps(['form', 'verify']);
  };

  return (
    <div data-testid="login-flow" data-step={step}>
      <BackArrow steps={steps} onBack={() => setSteps(['form'])} />
      <Form form={form} layout="vertical" requiredMark={false} onFinish={(values) => void submit(values)} preserve>
        {step === 'form' ? (
          <>
            <Form.Item
              label={t('fields.email')}
              name="email"
              rules={[
                { required: true, message: validationMessage('validation.required', locale) },
                { type: 'email', message: validationMessage('validation.email', locale) },
              ]}
            >
              <Input data-testid="login-email" autoComplete="username" autoFocus />
            </Form.Item>
            <Form.Item label={t('fields.password')} name="password" rules={[{ required: true, message: validationMessage('validation.required', locale) }]}>
              <Input.Password data-testid="login-password" autoComplete="current-password" />
            </Form.Item>
            <div style={{ display: 'flex', justifyContent: 'space-between', marginBottom: 12 }}>
              <Button type="link" style={{ padding: 0 }} data-testid="to-recover" onClick={() => onFlowChange('recover')}>
                {t('login.forgot')}
              </Button>
              <Button type="link" style={{ padding: 0 }} data-testid="to-register" onClick={() => onFlowChange('register')}>
                {t('login.register')}
              </Button>
            </div>
            <HumanCheck onToken={setToken} handleRef={humanCheck} />
          </>
        ) : (
          <>
            <VerifyFields
              needs={{ ...needs, mfa: needs.mfa && !isRecoveryCode }}
              email={form.getFieldValue('email') ?? ''}
              onSendCode={() => identityApi.sendCode('LOGIN_CHECK', { email: form.getFieldValue('email'), ticket: ticket ?? '' })}
            />
            {needs.mfa && isRecoveryCode && (
              <Form.Item label={t('verify.recoveryCode')} name="recoveryCode" rules={[{ required: true, message: validationMessage('validation.required', locale) }]}>
                <Input data-testid="recovery-code" placeholder="ABCDE-FGHIJ" autoComplete="off" />
              </Form.Item>
            )}
            {needs.mfa && (
              <Button type="link" style={{ padding: 0, marginBottom: 12 }} data-testid="toggle-recovery" onClick={() => setIsRecoveryCode(!isRecoveryCode)}>
                {isRecoveryCode ? t('verify.useAuthenticator') : t('verify.useRecoveryCode')}
              </Button>
            )}
          </>
        )}
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} data-testid="flow-error" />}
        <Button type="primary" htmlType="submit" block size="large" loading={isBusy} disabled={step === 'form' && !token} data-testid="login-submit">
          {t('login.submit')}
        </Button>
      </Form>
    </div>
  );
}

interface EmailFlowValues {
  email: string;
  emailCaptcha: string;
  password: string;
  confirm: string;
}

const FLOW_EVENTS: Record<'register' | 'recover', CaptchaEvent> = { register: 'EMAIL_REGISTER', recover: 'FORGET_PASSWORD' };

function EmailFlow({ flow, onFlowChange }: ActionFlowSlotProps & { flow: 'register' | 'recover' }) {
  const { t, i18n } = useTranslation('identity');
  const locale = toLocale(i18n.language);
  const [form] = Form.useForm<EmailFlowValues>();
  const [steps, setSteps] = useState<Step[]>(['mail']);
  const [token, setToken] = useState<string | null>(null);
  const [ticket, setTicket] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const humanCheck = useRef<HumanCheckHandle>(null);
  const step = steps[steps.length - 1];
  const stepOne = flow === 'register' ? identityApi.register : identityApi.forgetPassword;

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
      const body = { email: values.email, ticket: ticket ?? '', emailCaptcha: values.emailCaptcha, password: values.password, confirm: values.confirm };
      response = flow === 'register' ? await identityApi.register(body) : await identityApi.resetPassword(body);
      // On success the modal switches to Login (spec §4 "on a 200 go to Login").
      if (isSuccess(response)) onFlowChange('login');
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
            <Form.Item label={t('fields.email')} name="email" rules={[required, { type: 'email', message: validationMessage('validation.email', locale) }]}>
              <Input data-testid="flow-email" autoComplete="username" autoFocus />
            </Form.Item>
            <HumanCheck onToken={setToken} handleRef={humanCheck} />
          </>
        )}
        {step === 'verify' && (
          <VerifyFields
            needs={{ email: true, mfa: false, security: false }}
            email={form.getFieldValue('email') ?? ''}
            onSendCode={() => identityApi.sendCode(FLOW_EVENTS[flow], { email: form.getFieldValue('email'), ticket: ticket ?? '' })}
          />
        )}
        {step === 'password' && (
          <>
            <Form.Item
              label={t(flow === 'register' ? 'fields.setPassword' : 'fields.newPassword')}
              name="password"
              rules={[required, { validator: async (_, value: string) => ((value ?? '').trim().length >= 8 ? undefined : Promise.reject(new Error(validationMessage('validation.passwordMin', locale)))) }]}
            >
              <Input.Password data-testid="flow-password" autoComplete="new-password" autoFocus />
            </Form.Item>
            <Form.Item
              label={t('fields.confirm')}
              name="confirm"
              dependencies={['password']}
              rules={[
                required,
                ({ getFieldValue }) => ({
                  validator: async (_, value: string) =>
                    (value ?? '').trim() === String(getFieldValue('password') ?? '').trim() ? undefined : Promise.reject(new Error(validationMessage('validation.passwordMismatch', locale))),
                }),
              ]}
            >
              <Input.Password data-testid="flow-confirm" autoComplete="new-password" />
            </Form.Item>
          </>
        )}
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} data-testid="flow-error" />}
        <Button type="primary" htmlType="submit" block size="large" loading={isBusy} disabled={step === 'mail' && !token} data-testid="flow-submit">
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
