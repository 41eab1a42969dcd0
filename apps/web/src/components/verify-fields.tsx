import { maskEmail } from '@meridian/contracts/identity';
import { toLocale } from '@meridian/contracts/locale';
import { validationMessage } from '@meridian/contracts/validation';
import { Form, Input, Typography, type InputRef } from 'antd';
import { useRef, useState, type ChangeEvent, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { SendCodeButton, type SendCodeHandle } from './send-code-button.tsx';

/** Which inputs the Verify step shows (the verify config: email, mfa, security). */
export interface VerifyNeeds {
  email: boolean;
  mfa: boolean;
  security: boolean;
}

export interface VerifyFieldsProps {
  needs: VerifyNeeds;
  /** The address the code goes to, shown masked; empty when unknown. */
  email: string;
  /** Sends the email code; a failed answer's message is shown under the input. */
  onSendCode: () => Promise<{ statusCode: number; message: string }>;
  onSendFailure?: (statusCode: number) => void;
  sendCodeRef?: Ref<SendCodeHandle>;
  isCountdownStartedOnMount?: boolean;
  /**
   * Replaces "The code goes to …" under the email code, e.g. when the server refused a new send
   * because the code sent earlier is still valid.
   */
  emailNote?: string;
}

const SIX_DIGITS = /^\d{6}$/;

/**
 * The Verify inputs: only those required, in the focus order email code → security
 * password → two-factor code: the first shown has focus on opening, and six digits typed in one
 * move focus on to the next shown (Tab and Shift+Tab go the same way, the email code's send button
 * between). The email code has the send/resend button and the masked address.
 * Field names are the wire names (`emailCaptcha`, `securityPassword`, `mfaCode`).
 */
export function VerifyFields({
  needs,
  email,
  onSendCode,
  onSendFailure,
  sendCodeRef,
  isCountdownStartedOnMount,
  emailNote,
}: VerifyFieldsProps) {
  const { t, i18n } = useTranslation('identity');
  const locale = toLocale(i18n.language);
  const codeRule = (requiredKey: string) => [
    { required: true, message: validationMessage(requiredKey, locale) },
    { pattern: SIX_DIGITS, message: validationMessage('validation.code6', locale) },
  ];
  const first = needs.email ? 'email' : needs.security ? 'security' : 'mfa';
  const securityInput = useRef<InputRef>(null);
  const mfaInput = useRef<InputRef>(null);
  /** Moves focus on once the field holds six digits. */
  const advanceFrom = (field: 'email' | 'security') => (event: ChangeEvent<HTMLInputElement>) => {
    if (!SIX_DIGITS.test(event.target.value)) return;
    const next = field === 'email' && needs.security ? securityInput : needs.mfa ? mfaInput : null;
    next?.current?.focus();
  };
  const [sendError, setSendError] = useState<string | null>(null);
  const send = async () => {
    const response = await onSendCode();
    setSendError(response.statusCode === 200 ? null : response.message);
    return response.statusCode;
  };
  return (
    <>
      {needs.email && (
        <Form.Item
          label={t('verify.emailCode')}
          validateStatus={sendError ? 'error' : undefined}
          help={sendError ?? undefined}
          extra={
            emailNote ? (
              <Typography.Text type="secondary" data-testid="email-code-note">
                {emailNote}
              </Typography.Text>
            ) : email ? (
              <Typography.Text type="secondary" data-testid="email-code-note">
                {t('verify.sentTo', { email: maskEmail(email) })}
              </Typography.Text>
            ) : null
          }
        >
          <div className="verify-code-row" style={{ display: 'flex', gap: 8 }}>
            <Form.Item name="emailCaptcha" noStyle rules={codeRule('validation.emailCode')}>
              <Input
                data-testid="email-code"
                inputMode="numeric"
                autoComplete="one-time-code"
                maxLength={6}
                autoFocus={first === 'email'}
                onChange={advanceFrom('email')}
                placeholder={t('verify.codePlaceholder')}
              />
            </Form.Item>
            <SendCodeButton
              onSend={send}
              onFailure={onSendFailure}
              handleRef={sendCodeRef}
              isStartedOnMount={isCountdownStartedOnMount}
            />
          </div>
        </Form.Item>
      )}
      {needs.security && (
        <Form.Item
          label={t('verify.securityPassword')}
          name="securityPassword"
          rules={codeRule('validation.securityPassword')}
        >
          <Input.Password
            ref={securityInput}
            onChange={advanceFrom('security')}
            data-testid="security-password"
            inputMode="numeric"
            maxLength={6}
            autoFocus={first === 'security'}
          />
        </Form.Item>
      )}
      {needs.mfa && (
        <Form.Item label={t('verify.mfaCode')} name="mfaCode" rules={codeRule('validation.mfaCode')}>
          <Input
            ref={mfaInput}
            data-testid="mfa-code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            autoFocus={first === 'mfa'}
            placeholder={t('verify.codePlaceholder')}
          />
        </Form.Item>
      )}
    </>
  );
}
