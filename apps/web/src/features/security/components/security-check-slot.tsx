import type { CaptchaEvent, PasskeyAssertion } from '@meridian/contracts/security';
import { Alert, Button, Form, Spin } from 'antd';
import { maskEmail } from '@meridian/contracts/identity';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { callEndpoint, isSuccess } from '../../../lib/api-client.ts';
import type { OpenSecurityCheck } from '../../../stores/modal-store.ts';
import { useSecurityConfig } from '../../../lib/get-security-config.ts';
import { useSelf } from '../../../lib/get-self.ts';
import { sendEmailCode } from '../../../lib/send-email-code.ts';
import { applyServerErrors, STATUS_CAPTCHA_FAILED } from '../../../lib/form-errors.ts';
import type { SendCodeHandle } from '../../../components/send-code-button.tsx';
import { VerifyFields } from '../../../components/verify-fields.tsx';
import { getPasskeyAssertion, isPasskeySupported } from '../../../lib/passkey.ts';

export interface SecurityCheckSlotProps {
  request: OpenSecurityCheck;
  /** Close the modal; the caller's success or failure action has already run. */
  onClose: () => void;
}

/**
 * Events whose server check always demands an email code to the current address, whatever the
 * trade configuration says (changing the email proves control of the old address).
 */
const EVENTS_ALWAYS_NEEDING_EMAIL: ReadonlySet<CaptchaEvent> = new Set<CaptchaEvent>(['EMAIL_CHANGE']);
/** Events whose server check always demands the authenticator code (creating an API key). */
const EVENTS_ALWAYS_NEEDING_MFA: ReadonlySet<CaptchaEvent> = new Set<CaptchaEvent>(['API_KEY_CREATE']);

/** Business code of a send refused because the last code is younger than 59 s (HTTP 429). */
const STATUS_CODE_RESEND_WAIT = 112;

/** The seconds to wait that a refused send carries (`content.retryAfterSeconds`), if any. */
export function retryAfterSecondsOf(content: unknown): number | undefined {
  const seconds =
    typeof content === 'object' && content !== null
      ? (content as { retryAfterSeconds?: unknown }).retryAfterSeconds
      : undefined;
  return typeof seconds === 'number' && Number.isInteger(seconds) && seconds > 0 ? seconds : undefined;
}

/**
 * Whether a refused send (112) says an earlier code can still be entered (`content.hasUnusedCode`,
 * docs/identity.md "Codes"). Only `true` counts: a used-up or voided code is never offered again.
 */
export function hasUnusedCodeOf(content: unknown): boolean {
  return (
    typeof content === 'object' && content !== null && (content as { hasUnusedCode?: unknown }).hasUnusedCode === true
  );
}

interface Factors {
  emailCaptcha?: string;
  securityPassword?: string;
  mfaCode?: string;
  /** A passkey's answer in place of `mfaCode`. */
  passkey?: PasskeyAssertion;
}

/** The request's input with the factors added to its body (the factors travel in the body of the call they authorise). */
function withFactors({ input }: OpenSecurityCheck, factors: Factors): OpenSecurityCheck['input'] {
  return { ...input, body: { ...(input.body as object), ...factors } };
}

/**
 * The security-check modal body: loads the security configuration, shows the factors the
 * trade configuration requires, sends the email code on show (starting the countdown), then sends
 * the caller's call through its descriptor (`callEndpoint`; event from the descriptor's `sensitiveAction`)
 * with `mfaCode`, `emailCaptcha` and `securityPassword` added to its body. 200: closes and runs
 * the caller's success; another code: runs the caller's failure and stays open; 119 closes it.
 * Shown again within 59 s of an unused code (the dialog closed and the action retried), the server
 * refuses a new code (112, HTTP 429, `retryAfterSeconds`): the countdown shows the server's remaining
 * time, and only when the answer says that code is unused (`hasUnusedCode`) does the note say it is
 * still valid; otherwise the refusal is shown. Another send failure is shown under the input.
 */
export function SecurityCheckSlot({ request, onClose }: SecurityCheckSlotProps) {
  const { t } = useTranslation('identity');
  const config = useSecurityConfig();
  const self = useSelf();
  const [form] = Form.useForm<Factors>();
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const hasSentOnShow = useRef(false);
  const sendCode = useRef<SendCodeHandle>(null);
  const [emailNote, setEmailNote] = useState<string | undefined>(undefined);
  const { event } = request;
  const trade = config.data?.trade;
  const needs = {
    email: trade?.email === 1 || EVENTS_ALWAYS_NEEDING_EMAIL.has(event),
    mfa: trade?.mfa === 1 || EVENTS_ALWAYS_NEEDING_MFA.has(event),
    security: trade?.security === 1,
  };

  const submit = async (factors: Factors) => {
    setError(null);
    setIsBusy(true);
    const response = await callEndpoint(request.endpoint, withFactors(request, factors), {
      headers: request.headers,
      quietSuccess: request.quietSuccess,
    });
    setIsBusy(false);
    if (isSuccess(response)) {
      onClose();
      request.onSuccess?.(response.content);
      return;
    }
    request.onFailure?.(response.statusCode, response);
    if (response.statusCode === STATUS_CAPTCHA_FAILED) {
      onClose();
      return;
    }
    setError(applyServerErrors(form, response, ['emailCaptcha', 'securityPassword', 'mfaCode']));
  };

  // Email needed: the code is sent when the modal shows (once: the ref), and the countdown starts with it.
  const selfEmail = self.data?.email;
  useEffect(() => {
    if (!needs.email || hasSentOnShow.current) return;
    hasSentOnShow.current = true;
    void sendEmailCode(event).then((response) => {
      if (response.statusCode === 200) return;
      const seconds =
        response.statusCode === STATUS_CODE_RESEND_WAIT ? retryAfterSecondsOf(response.content) : undefined;
      if (seconds !== undefined) {
        sendCode.current?.start(seconds);
        if (hasUnusedCodeOf(response.content))
          setEmailNote(t('verify.sentEarlier', { email: selfEmail ? maskEmail(selfEmail) : '' }));
        else setError(response.message);
      } else {
        sendCode.current?.reset();
        setError(response.message);
      }
    });
  }, [needs.email, event, selfEmail, t]);

  // Nothing required: run the action directly, once, with the latest request.
  const needsNothing = config.data !== undefined && !needs.email && !needs.mfa && !needs.security;
  const submitDirectly = useEffectEvent(() => void submit({}));
  const hasSubmittedDirectly = useRef(false);
  useEffect(() => {
    if (!needsNothing || hasSubmittedDirectly.current) return;
    hasSubmittedDirectly.current = true;
    submitDirectly();
  }, [needsNothing]);

  // The mfa factor by passkey: the other factors are checked by the form, then the
  // browser signs a fresh challenge and the call goes with its answer instead of `mfaCode`.
  const canUsePasskey = needs.mfa && (config.data?.mfa.includes('passkey') ?? false) && isPasskeySupported();
  const submitWithPasskey = async () => {
    const others = [
      ...(needs.email ? ['emailCaptcha' as const] : []),
      ...(needs.security ? ['securityPassword' as const] : []),
    ];
    const values = await form.validateFields(others).catch(() => null);
    if (!values) return;
    setError(null);
    setIsBusy(true);
    const assertion = await getPasskeyAssertion({ purpose: 'verify' });
    setIsBusy(false);
    if (assertion.kind === 'ok') await submit({ ...values, passkey: assertion.value });
    else setError(assertion.kind === 'failed' ? assertion.response.message : t('passkeys.cancelled'));
  };

  // Without the authenticator app the passkey is the only answer: no code input, one button.
  const isPasskeyOnly = canUsePasskey && !(config.data?.mfa.includes('google') ?? false);

  if (!config.data) return <Spin data-testid="security-check-loading" />;
  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={(values) => void (isPasskeyOnly ? submitWithPasskey() : submit(values))}
      data-testid="security-check-form"
    >
      <VerifyFields
        needs={{ ...needs, mfa: needs.mfa && !isPasskeyOnly }}
        email={self.data?.email ?? ''}
        isCountdownStartedOnMount={needs.email}
        sendCodeRef={sendCode}
        emailNote={emailNote}
        onSendCode={async () => {
          const response = await sendEmailCode(event);
          if (response.statusCode === 200) setEmailNote(undefined);
          return response;
        }}
      />
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
      {isPasskeyOnly ? (
        <Button
          type="primary"
          block
          loading={isBusy}
          onClick={() => void submitWithPasskey()}
          data-testid="security-check-passkey"
        >
          {t('passkeys.verifyWithPasskey')}
        </Button>
      ) : (
        <Button type="primary" htmlType="submit" block loading={isBusy} data-testid="security-check-submit">
          {t('verify.confirm')}
        </Button>
      )}
      {canUsePasskey && !isPasskeyOnly && (
        <Button
          block
          style={{ marginTop: 8 }}
          loading={isBusy}
          onClick={() => void submitWithPasskey()}
          data-testid="security-check-passkey"
        >
          {t('passkeys.verifyWithPasskey')}
        </Button>
      )}
    </Form>
  );
}
