import { toLocale } from '@meridian/contracts/locale';
import { validationMessage } from '@meridian/contracts/validation';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Divider, Form, Input } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { VerifyFields, type VerifyNeeds } from '../../../components/verify-fields.tsx';
import { isSuccess } from '../../../lib/api-client.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import { getSecurityConfig } from '../../../lib/get-security-config.ts';
import { getSelf } from '../../../lib/get-self.ts';
import { identityKeys } from '../../../lib/identity-keys.ts';
import { sendEmailCode } from '../../../lib/send-email-code.ts';
import { setUserId } from '../../../lib/session.ts';
import { getPasskeyAssertion, isPasskeySupported } from '../../../lib/passkey.ts';
import { useLogIn } from '../api/log-in.ts';
import { passkeyLogIn } from '../api/passkey-log-in.ts';
import type { ActionFlowSlotProps, Step } from './action-flow-types.ts';
import { BackArrow } from './back-arrow.tsx';
import { HumanCheck, type HumanCheckHandle } from './human-check.tsx';

interface LoginValues {
  email: string;
  password: string;
  emailCaptcha?: string;
  mfaCode?: string;
  recoveryCode?: string;
}

/**
 * The Login flow: the Form step (email, password, human check), then the Verify step when
 * the answer asks for an email code or an authenticator (or recovery) code. A 200 with an account id
 * signs in: it stores the id, reloads the user's data and closes the modal. After Register or
 * Recover (`handoff`) the form says the account exists (or the password was reset) in a success
 * message and has the email filled in, the password focused.
 */
export function LoginFlow({ returnTo, onFlowChange, onDone, handoff }: ActionFlowSlotProps) {
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
  /** The Verify step may take a passkey for the mfa factor (the account has one: `content.passkey`). */
  const [isPasskeyOffered, setIsPasskeyOffered] = useState(false);
  /** No authenticator app: the passkey is the only answer to the mfa factor (no code input, no recovery codes). */
  const [isPasskeyOnly, setIsPasskeyOnly] = useState(false);
  const humanCheck = useRef<HumanCheckHandle>(null);
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const logIn = useLogIn();
  const step = steps[steps.length - 1];

  /** Sign-in: store the account id, load user and security config (and balances), close. */
  const signIn = async (accountId: string) => {
    setUserId(accountId);
    await queryClient.invalidateQueries();
    await Promise.all([
      queryClient.prefetchQuery({ queryKey: identityKeys.self, queryFn: async () => (await getSelf()).content }),
      queryClient.prefetchQuery({
        queryKey: identityKeys.config,
        queryFn: async () => (await getSecurityConfig()).content,
      }),
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
        ? await logIn.mutateAsync({ email, password, token: token ?? '' })
        : await logIn.mutateAsync({
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
    setIsPasskeyOffered(response.content.mfa && response.content.passkey === true && isPasskeySupported());
    setIsPasskeyOnly(
      response.content.mfa && response.content.passkey === true && response.content.authenticator === false,
    );
    setSteps(['form', 'verify']);
  };

  /**
   * Sign in with a passkey: no email or password; the browser offers the site's
   * passkeys. Or, at the Verify step, the passkey answers the mfa factor (after the email code).
   */
  const continueWithPasskey = async () => {
    setError(null);
    const isVerify = step === 'verify';
    const values = isVerify ? await form.validateFields(needs.email ? ['emailCaptcha'] : []).catch(() => null) : {};
    if (!values) return;
    setIsBusy(true);
    const { email, password } = form.getFieldsValue(true) as LoginValues;
    const assertion = await getPasskeyAssertion(
      isVerify ? { purpose: 'verify', email, ticket: ticket ?? '' } : { purpose: 'login' },
    );
    if (assertion.kind !== 'ok') {
      setIsBusy(false);
      setError(assertion.kind === 'failed' ? assertion.response.message : t('passkeys.cancelled'));
      return;
    }
    const response = isVerify
      ? await logIn.mutateAsync({
          email,
          password,
          ticket: ticket ?? '',
          emailCaptcha: (values as Partial<LoginValues>).emailCaptcha,
          passkey: assertion.value,
        })
      : await passkeyLogIn(assertion.value);
    setIsBusy(false);
    if (!isSuccess(response)) {
      setError(applyServerErrors(form, response, ['emailCaptcha']));
      return;
    }
    if (response.content.accountId) await signIn(response.content.accountId);
  };

  return (
    <div data-testid="login-flow" data-step={step}>
      <BackArrow steps={steps} onBack={() => setSteps(['form'])} />
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={handoff ? { email: handoff.email } : undefined}
        onFinish={(values) => void (step === 'verify' && isPasskeyOnly ? continueWithPasskey() : submit(values))}
        preserve
      >
        {step === 'form' ? (
          <>
            {handoff && (
              <Alert
                type="success"
                showIcon
                title={t(`login.${handoff.notice}`, { email: handoff.email })}
                style={{ marginBottom: 12 }}
                data-testid="login-notice"
              />
            )}
            <Form.Item
              label={t('fields.email')}
              name="email"
              rules={[
                { required: true, message: validationMessage('validation.required', locale) },
                { type: 'email', message: validationMessage('validation.email', locale) },
              ]}
            >
              <Input data-testid="login-email" autoComplete="username" autoFocus={!handoff} />
            </Form.Item>
            <Form.Item
              label={t('fields.password')}
              name="password"
              rules={[{ required: true, message: validationMessage('validation.required', locale) }]}
            >
              <Input.Password data-testid="login-password" autoComplete="current-password" autoFocus={!!handoff} />
            </Form.Item>
            <div style={{ display: 'flex', justifyContent: 'space-between', marginBottom: 12 }}>
              <Button
                type="link"
                style={{ padding: 0 }}
                data-testid="to-recover"
                onClick={() => onFlowChange('recover')}
              >
                {t('login.forgot')}
              </Button>
              <Button
                type="link"
                style={{ padding: 0 }}
                data-testid="to-register"
                onClick={() => onFlowChange('register')}
              >
                {t('login.register')}
              </Button>
            </div>
            <HumanCheck onToken={setToken} handleRef={humanCheck} />
          </>
        ) : (
          <>
            <VerifyFields
              needs={{ ...needs, mfa: needs.mfa && !isRecoveryCode && !isPasskeyOnly }}
              email={form.getFieldValue('email') ?? ''}
              onSendCode={() =>
                sendEmailCode('LOGIN_CHECK', { email: form.getFieldValue('email'), ticket: ticket ?? '' })
              }
            />
            {needs.mfa && isRecoveryCode && (
              <Form.Item
                label={t('verify.recoveryCode')}
                name="recoveryCode"
                rules={[{ required: true, message: validationMessage('validation.required', locale) }]}
              >
                <Input data-testid="recovery-code" placeholder="ABCDE-FGHIJ" autoComplete="off" />
              </Form.Item>
            )}
            {needs.mfa && !isPasskeyOnly && (
              <Button
                type="link"
                style={{ padding: 0, marginBottom: 12 }}
                data-testid="toggle-recovery"
                onClick={() => setIsRecoveryCode(!isRecoveryCode)}
              >
                {isRecoveryCode ? t('verify.useAuthenticator') : t('verify.useRecoveryCode')}
              </Button>
            )}
          </>
        )}
        {error && <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} data-testid="flow-error" />}
        {!(step === 'verify' && isPasskeyOnly) && (
          <Button
            type="primary"
            htmlType="submit"
            block
            size="large"
            loading={isBusy}
            disabled={step === 'form' && !token}
            data-testid="login-submit"
          >
            {t('login.submit')}
          </Button>
        )}
        {(step === 'form' ? isPasskeySupported() : isPasskeyOffered || isPasskeyOnly) && (
          <>
            {step === 'form' && (
              <Divider plain style={{ margin: '12px 0' }}>
                {t('passkeys.or')}
              </Divider>
            )}
            <Button
              block
              size="large"
              type={step === 'verify' && isPasskeyOnly ? 'primary' : 'default'}
              style={step === 'form' || isPasskeyOnly ? undefined : { marginTop: 8 }}
              loading={isBusy}
              onClick={() => void continueWithPasskey()}
              data-testid={step === 'form' ? 'login-passkey' : 'login-verify-passkey'}
            >
              {step === 'form' ? t('passkeys.signIn') : t('passkeys.verifyWithPasskey')}
            </Button>
          </>
        )}
      </Form>
    </div>
  );
}
