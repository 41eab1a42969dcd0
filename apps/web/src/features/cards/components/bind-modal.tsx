import { type BindCardBody, bindCardBodySchema } from '@meridian/contracts/cards';
import { toLocale } from '@meridian/contracts/locale';
import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/app-modal.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useBindCard } from '../api/bind-card.ts';
import { contractFieldErrors, serverFieldErrors } from '../lib/form-refusals.ts';

/** Where a refused bind shows: a wrong number or code (212) under the number, the limit of 3 (210) too. */
const FIELD_OF_CODE: Partial<Record<number, (string | number)[]>> = { 210: ['cardNumber'], 212: ['cardNumber'] };

/**
 * Bind a pre-activated physical card (corporate customers): its number and the 6-digit
 * activation code that came with it. It counts toward the 3 physical cards.
 */
export function BindModal({ onClose }: { onClose: () => void }) {
  const { t, i18n } = useTranslation('cards');
  const locale = toLocale(i18n.language);
  const [form] = Form.useForm<BindCardBody>();
  const bind = useBindCard();
  const [formError, setFormError] = useState<string | null>(null);

  const submit = (values: BindCardBody) => {
    setFormError(null);
    const errors = contractFieldErrors(bindCardBodySchema, values, locale);
    if (errors.length > 0) {
      form.setFields(errors.map((e) => ({ name: e.name as never, errors: e.errors })));
      return;
    }
    bind.mutate(values, {
      onSuccess: onClose,
      onError: (error) => {
        if (!(error instanceof ApiError)) return setFormError(String(error));
        const refusal = serverFieldErrors(error.response, FIELD_OF_CODE);
        form.setFields(refusal.fields.map((e) => ({ name: e.name as never, errors: e.errors })));
        setFormError(refusal.message);
      },
    });
  };

  return (
    <AppModal open title={t('bind.title')} footer={null} onCancel={onClose} data-testid="card-bind-modal">
      <Form<BindCardBody> form={form} layout="vertical" requiredMark={false} onFinish={submit}>
        <Alert type="info" style={{ marginBottom: 16 }} message={t('bind.intro')} />
        <Form.Item
          name="cardNumber"
          label={t('bind.cardNumber')}
          rules={[{ required: true, message: t('apply.required') }]}
        >
          <Input inputMode="numeric" autoComplete="off" maxLength={23} data-testid="card-bind-number" />
        </Form.Item>
        <Form.Item
          name="activationCode"
          label={t('bind.code')}
          extra={t('bind.codeHelp')}
          rules={[{ required: true, message: t('apply.required') }]}
        >
          <Input inputMode="numeric" autoComplete="one-time-code" maxLength={6} data-testid="card-bind-code" />
        </Form.Item>
        {formError && (
          <Alert type="error" showIcon style={{ marginBottom: 12 }} message={formError} data-testid="card-bind-error" />
        )}
        <Button type="primary" htmlType="submit" block loading={bind.isPending} data-testid="card-bind-submit">
          {t('bind.submit')}
        </Button>
      </Form>
    </AppModal>
  );
}
