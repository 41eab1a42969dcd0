import { type CardDetail, type SetCardSpendRulesBody, setCardSpendRulesBodySchema } from '@meridian/contracts/cards';
import { toLocale } from '@meridian/contracts/locale';
import { Alert, Button, Form, Input, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/app-modal.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useSetSpendRules } from '../api/set-spend-rules.ts';
import { contractFieldErrors, serverFieldErrors } from '../lib/form-refusals.ts';
import { COMMON_MCCS } from '../lib/merchant-categories.ts';

interface RulesValues {
  blockedMccs: string[];
  perTransactionMax?: string;
  askAbove?: string;
}

/**
 * The card's spend rules: merchant categories blocked, a per-transaction maximum, and
 * "ask me above X" (in-person payments above X wait for a push confirmation, 5 minutes). Amounts
 * are in the card's currency; an empty field means no rule.
 */
export function RulesModal({ card, onClose }: { card: CardDetail; onClose: () => void }) {
  const { t, i18n } = useTranslation('cards');
  const locale = toLocale(i18n.language);
  const [form] = Form.useForm<RulesValues>();
  const save = useSetSpendRules(card.id);
  const [formError, setFormError] = useState<string | null>(null);

  const submit = (values: RulesValues) => {
    setFormError(null);
    const body: SetCardSpendRulesBody = {
      currency: card.currency,
      blockedMccs: values.blockedMccs,
      perTransactionMax: values.perTransactionMax?.trim() || null,
      askAbove: values.askAbove?.trim() || null,
    };
    const errors = contractFieldErrors(setCardSpendRulesBodySchema, body, locale);
    if (errors.length > 0) {
      form.setFields(errors.map((e) => ({ name: e.name.slice(0, 1) as never, errors: e.errors })));
      return;
    }
    save.mutate(body, {
      onSuccess: onClose,
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
      title={t('rules.title', { card: card.last4 })}
      footer={null}
      onCancel={onClose}
      data-testid="card-rules-modal"
    >
      <Form<RulesValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{
          blockedMccs: card.spendRules.blockedMccs,
          perTransactionMax: card.spendRules.perTransactionMax ?? '',
          askAbove: card.spendRules.askAbove ?? '',
        }}
        onFinish={submit}
      >
        <Form.Item name="blockedMccs" label={t('rules.blocked')} extra={t('rules.blockedHelp')}>
          <Select
            mode="tags"
            tokenSeparators={[',', ' ']}
            data-testid="card-rules-mccs"
            options={COMMON_MCCS.map((code) => ({ value: code, label: `${code} · ${t(`mcc.${code}`)}` }))}
          />
        </Form.Item>
        <Form.Item
          name="perTransactionMax"
          label={t('rules.perTransactionMax')}
          extra={t('rules.perTransactionMaxHelp')}
        >
          <Input inputMode="decimal" suffix={card.currency} autoComplete="off" data-testid="card-rules-max" />
        </Form.Item>
        <Form.Item name="askAbove" label={t('rules.askAbove')} extra={t('rules.askAboveHelp')}>
          <Input inputMode="decimal" suffix={card.currency} autoComplete="off" data-testid="card-rules-ask" />
        </Form.Item>
        {formError && <Alert type="error" showIcon style={{ marginBottom: 12 }} message={formError} />}
        <Button type="primary" htmlType="submit" block loading={save.isPending} data-testid="card-rules-submit">
          {t('rules.submit')}
        </Button>
      </Form>
    </AppModal>
  );
}
