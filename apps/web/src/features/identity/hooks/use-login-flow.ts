import type { FormInstance } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { VerifyNeeds } from '../../../components/verify-fields.tsx';
import { isSuccess } from '../../../lib/api-client.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import { getPasskeyAssertion, isPasskeySupported } from '../../../lib/passkey.ts';
import { useLogIn } from '../api/log-in.ts';
import { passkeyLogIn } from '../api/passkey-log-in.ts';
import type { Step } from '../components/action-flow-types.ts';
import type { HumanCheckHandle } from '../components/human-check.tsx';
import { useSignIn } from './use-sign-in.ts';

/** The Login flow's fields (the codes only at the Verify step). */
export interface LoginValues {
  email: string;
  password: string;
  emailCaptcha?: string;
  mfaCode?: string;
  recoveryCode?: string;
}

/**
 * The Login flow's state and sends. `submit` sends the email and password with the human check's
 * `token` (Form step) or with the codes and the `ticket` (Verify step); an answer with an account id
 * signs in (`useSignIn`), one with a ticket moves to the Verify step with the factors it `needs`.
 * `continueWithPasskey` signs in with a passkey (Form step) or answers the mfa factor with one
 * (Verify step, after the email code). Refusals go on their fields or into `error`.
 */
export function useLoginFlow(form: FormInstance<LoginValues>, done: { returnTo?: string; onDone: () => void }) {
  const { t } = useTranslation('identity');
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
  const logIn = useLogIn();
  const signIn = useSignIn(done);
  const step = steps[steps.length - 1];

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

  return {
    steps,
    step,
    backToForm: () => setSteps(['form']),
    token,
    setToken,
    ticket,
    needs,
    error,
    isBusy,
    isRecoveryCode,
    toggleRecoveryCode: () => setIsRecoveryCode(!isRecoveryCode),
    isPasskeyOffered,
    isPasskeyOnly,
    humanCheck,
    submit,
    continueWithPasskey,
  };
}
