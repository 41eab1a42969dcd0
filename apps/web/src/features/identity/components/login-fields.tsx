import { toLocale } from '@meridian/contracts/locale';
import { validationMessage } from '@meridian/contracts/validation';
import { Alert, Button, Form, Input } from 'antd';
import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { VerifyFields, type VerifyNeeds } from '../../../components/verify-fields.tsx';
import { sendEmailCode } from '../../../lib/send-email-code.ts';
import type { LoginHandoff } from '../../../stores/modal-store.ts';
import type { ActionFlowSlotProps } from './action-flow-types.ts';
import { HumanCheck, type HumanCheckHandle } from './human-check.tsx';

/** Props of {@link LoginCredentialFields}. */
export interface LoginCredentialFieldsProps {
  /** After Register or Recover: the notice to show; the email is filled in and the password focused. */
  handoff: LoginHandoff | undefined;
  onFlowChange: ActionFlowSlotProps['onFlowChange'];
  /** Receives the human check's token once solved. */
  onToken: (token: string | null) => void;
  humanCheck: Ref<HumanCheckHandle>;
}

/** The Login flow's Form step: the handoff notice, email, password, the links to Recover and Register, the human check. */
export function LoginCredentialFields({ handoff, onFlowChange, onToken, humanCheck }: LoginCredentialFieldsProps) {
  const { t, i18n } = useTranslation('identity');
  const locale = toLocale(i18n.language);
  return (
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
        <Button type="link" style={{ padding: 0 }} data-testid="to-recover" onClick={() => onFlowChange('recover')}>
          {t('login.forgot')}
        </Button>
        <Button type="link" style={{ padding: 0 }} data-testid="to-register" onClick={() => onFlowChange('register')}>
          {t('login.register')}
        </Button>
      </div>
      <HumanCheck onToken={onToken} handleRef={humanCheck} />
    </>
  );
}

/** Props of {@link LoginVerifyFields}. */
export interface LoginVerifyFieldsProps {
  /** The factors the login answer asks for. */
  needs: VerifyNeeds;
  /** The login's ticket (sent with the email code request). */
  ticket: string | null;
  /** A recovery code replaces the authenticator code. */
  isRecoveryCode: boolean;
  onToggleRecoveryCode: () => void;
  /** The passkey is the only answer to the mfa factor: no code input, no recovery code. */
  isPasskeyOnly: boolean;
}

/** The Login flow's Verify step: the email code and the authenticator code, or a recovery code instead. */
export function LoginVerifyFields(props: LoginVerifyFieldsProps) {
  const { needs, ticket, isRecoveryCode, onToggleRecoveryCode, isPasskeyOnly } = props;
  const { t, i18n } = useTranslation('identity');
  const locale = toLocale(i18n.language);
  const form = Form.useFormInstance();
  return (
    <>
      <VerifyFields
        needs={{ ...needs, mfa: needs.mfa && !isRecoveryCode && !isPasskeyOnly }}
        email={form.getFieldValue('email') ?? ''}
        onSendCode={() => sendEmailCode('LOGIN_CHECK', { email: form.getFieldValue('email'), ticket: ticket ?? '' })}
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
          onClick={onToggleRecoveryCode}
        >
          {isRecoveryCode ? t('verify.useAuthenticator') : t('verify.useRecoveryCode')}
        </Button>
      )}
    </>
  );
}
