import { Alert, Button, Divider, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { isPasskeySupported } from '../../../lib/passkey.ts';
import { type LoginValues, useLoginFlow } from '../hooks/use-login-flow.ts';
import type { ActionFlowSlotProps } from './action-flow-types.ts';
import { BackArrow } from './back-arrow.tsx';
import { LoginCredentialFields, LoginVerifyFields } from './login-fields.tsx';

/**
 * The Login flow: the Form step (email, password, human check), then the Verify step when
 * the answer asks for an email code or an authenticator (or recovery) code. A 200 with an account id
 * signs in: it stores the id, reloads the user's data and closes the modal. After Register or
 * Recover (`handoff`) the form says the account exists (or the password was reset) in a success
 * message and has the email filled in, the password focused.
 */
export function LoginFlow({ returnTo, onFlowChange, onDone, handoff }: ActionFlowSlotProps) {
  const { t } = useTranslation('identity');
  const [form] = Form.useForm<LoginValues>();
  const flow = useLoginFlow(form, { returnTo, onDone });
  const { step, isBusy, isPasskeyOnly } = flow;
  const isPasskeyStep = step === 'verify' && isPasskeyOnly;

  return (
    <div data-testid="login-flow" data-step={step}>
      <BackArrow steps={flow.steps} onBack={flow.backToForm} />
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={handoff ? { email: handoff.email } : undefined}
        onFinish={(values) => void (isPasskeyStep ? flow.continueWithPasskey() : flow.submit(values))}
        preserve
      >
        {step === 'form' ? (
          <LoginCredentialFields
            handoff={handoff}
            onFlowChange={onFlowChange}
            onToken={flow.setToken}
            humanCheck={flow.humanCheck}
          />
        ) : (
          <LoginVerifyFields
            needs={flow.needs}
            ticket={flow.ticket}
            isRecoveryCode={flow.isRecoveryCode}
            onToggleRecoveryCode={flow.toggleRecoveryCode}
            isPasskeyOnly={isPasskeyOnly}
          />
        )}
        {flow.error && (
          <Alert type="error" showIcon message={flow.error} style={{ marginBottom: 12 }} data-testid="flow-error" />
        )}
        {!isPasskeyStep && (
          <Button
            type="primary"
            htmlType="submit"
            block
            size="large"
            loading={isBusy}
            disabled={step === 'form' && !flow.token}
            data-testid="login-submit"
          >
            {t('login.submit')}
          </Button>
        )}
        {(step === 'form' ? isPasskeySupported() : flow.isPasskeyOffered || isPasskeyOnly) && (
          <>
            {step === 'form' && (
              <Divider plain style={{ margin: '12px 0' }}>
                {t('passkeys.or')}
              </Divider>
            )}
            <Button
              block
              size="large"
              type={isPasskeyStep ? 'primary' : 'default'}
              style={step === 'form' || isPasskeyOnly ? undefined : { marginTop: 8 }}
              loading={isBusy}
              onClick={() => void flow.continueWithPasskey()}
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
