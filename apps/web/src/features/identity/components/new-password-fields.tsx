import type { Locale } from '@meridian/contracts/locale';
import { validationMessage } from '@meridian/contracts/validation';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The Password step of Register and Recover: a new password of at least 8 characters and
 * its confirmation, compared without surrounding spaces.
 */
export function NewPasswordFields({ flow, locale }: { flow: 'register' | 'recover'; locale: Locale }) {
  const { t } = useTranslation('identity');
  const required = { required: true, message: validationMessage('validation.required', locale) };
  return (
    <>
      <Form.Item
        label={t(flow === 'register' ? 'fields.setPassword' : 'fields.newPassword')}
        name="password"
        rules={[
          required,
          {
            validator: async (_, value: string) =>
              (value ?? '').trim().length >= 8
                ? undefined
                : Promise.reject(new Error(validationMessage('validation.passwordMin', locale))),
          },
        ]}
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
              (value ?? '').trim() === String(getFieldValue('password') ?? '').trim()
                ? undefined
                : Promise.reject(new Error(validationMessage('validation.passwordMismatch', locale))),
          }),
        ]}
      >
        <Input.Password data-testid="flow-confirm" autoComplete="new-password" />
      </Form.Item>
    </>
  );
}
