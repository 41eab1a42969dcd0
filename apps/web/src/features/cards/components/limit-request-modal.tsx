import { type CardDetail, type CardLimitRequestBody, cardLimitRequestBodySchema } from '@meridian/contracts/cards';
import { toLocale } from '@meridian/contracts/locale';
import { Alert, Button, Descriptions, Form, Input, Result } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/app-modal.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useRequestLimitChange } from '../api/request-limit-change.ts';
import { money } from '../lib/card-format.ts';
import { contractFieldErrors, serverFieldErrors } from '../lib/form-refusals.ts';

interface LimitValues {
  perTransaction?: string;
  daily?: string;
  monthly?: string;
  reason: string;
}

const LIMIT_FIELDS = ['perTransaction', 'daily', 'monthly'] as const;

/**
 * A limit-change request to customer service (limit changes need customer service): the
 * card's limits now, the limits asked for (empty = unchanged) and why. While a request is waiting,
 * it is shown instead of the form (one at a time, code 216).
 */
export function LimitRequestModal({ card, onClose }: { card: CardDetail; onClose: () => void }) {
  const { t, i18n } = useTranslation('cards');
  const locale = toLocale(i18n.language);
  const [form] = Form.useForm<LimitValues>();
  const send = useRequestLimitChange(card.id);
  const [formError, setFormError] = useState<string | null>(null);
  const limitText = (value: string | null) => (value === null ? t('limits.none') : money(value, card.currency));
  const pending = card.pendingLimitRequest;

  const submit = (values: LimitValues) => {
    setFormError(null);
    const body: CardLimitRequestBody = {
      currency: card.currency,
      perTransaction: values.perTransaction?.trim() || null,
      daily: values.daily?.trim() || null,
      monthly: values.monthly?.trim() || null,
      reason: values.reason.trim(),
    };
    const errors = contractFieldErrors(cardLimitRequestBodySchema, body, locale);
    if (errors.length > 0) {
      form.setFields(errors.map((e) => ({ name: e.name.slice(0, 1) as never, errors: e.errors })));
      return;
    }
    send.mutate(body, {
      onError: (error) => {
        if (!(error instanceof ApiError)) return setFormError(String(error));
        const refusal = serverFieldErrors(error.response);
        form.setFields(refusal.fields.map((e) => ({ name: e.name.slice(0, 1) as never, errors: e.errors })));
        setFormError(refusal.message);
      },
    });
  };

  return (
    <AppModal
      open
      title={t('limits.title', { card: card.last4 })}
      footer={null}
      onCancel={onClose}
      data-testid="card-limits-modal"
    >
      <Descriptions
        size="small"
        column={1}
        bordered
        title={t('limits.current')}
        style={{ marginBottom: 16 }}
        items={LIMIT_FIELDS.map((field) => ({
          key: field,
          label: t(`limits.${field}`),
          children: limitText(card.limits[field]),
        }))}
      />
      {send.isSuccess ? (
        <Result
          status="success"
          title={t('limits.sent')}
          subTitle={t('limits.sentBody')}
          data-testid="card-limits-sent"
        />
      ) : pending ? (
        <Alert
          type="info"
          showIcon
          data-testid="card-limits-pending"
          message={t('limits.pending', { date: dayjs(pending.createdAt).format('YYYY-MM-DD HH:mm') })}
          description={LIMIT_FIELDS.map((field) =>
            pending.requested[field] === null ? null : (
              <div key={field}>{`${t(`limits.${field}`)}: ${money(pending.requested[field], card.currency)}`}</div>
            ),
          )}
        />
      ) : (
        <Form<LimitValues>
          form={form}
          layout="vertical"
          requiredMark={false}
          onFinish={submit}
          data-testid="card-limits-form"
        >
          {LIMIT_FIELDS.map((field) => (
            <Form.Item key={field} name={field} label={t(`limits.${field}`)}>
              <Input
                inputMode="decimal"
                suffix={card.currency}
                autoComplete="off"
                placeholder={t('limits.unchanged')}
              />
            </Form.Item>
          ))}
          <Form.Item
            name="reason"
            label={t('limits.reason')}
            rules={[{ required: true, message: t('apply.required') }]}
          >
            <Input maxLength={500} data-testid="card-limits-reason" />
          </Form.Item>
          {formError && <Alert type="error" showIcon style={{ marginBottom: 12 }} message={formError} />}
          <Button type="primary" htmlType="submit" block loading={send.isPending} data-testid="card-limits-submit">
            {t('limits.submit')}
          </Button>
        </Form>
      )}
    </AppModal>
  );
}
