import type { Card, CardConfig } from '@meridian/contracts/cards';
import { Alert, Button, Form, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/app-modal.tsx';
import { type ApplyValues, useApplyCard } from '../hooks/use-apply-card.ts';
import { ApplyCardFields, ApplyFeeFields, ApplyKindField, ShippingFields } from './apply-fields.tsx';
import { CardFace } from './card-face.tsx';

/**
 * Apply for a card: a virtual card (network and currency; no issuing fee while the
 * promotion lasts, active at once) or a physical card (network, currency, shipping address; the
 * 10 USDT production fee is shown with the wallet's USDT and must be accepted; at most 3 per user,
 * `physicalCardsLeft`). The body is checked with the contract's schema, then the security check
 * (CARD_APPLY) sends it with one idempotency key per opening of the modal.
 */
export function ApplyModal({
  config,
  defaultName,
  onClose,
}: {
  config: CardConfig;
  defaultName: string;
  onClose: () => void;
}) {
  const { t } = useTranslation('cards');
  const { apply, send } = useApplyCard(onClose);
  const { form, result: created } = apply;
  const kind = Form.useWatch('kind', form) ?? 'VIRTUAL';
  const isPhysical = kind === 'PHYSICAL';

  return (
    <AppModal open title={t('apply.title')} footer={null} onCancel={apply.close} data-testid="card-apply-modal">
      {created ? (
        <ApplyResult card={created} onDone={apply.close} />
      ) : (
        <Form<ApplyValues>
          {...apply.formProps}
          layout="vertical"
          requiredMark={false}
          initialValues={{
            kind: 'VIRTUAL',
            network: config.networks[0],
            currency: config.virtualCurrencies[0] ?? config.currencies[0],
            cardholderName: defaultName,
            shippingAddress: { country: 'HK' },
          }}
          onFinish={send}
          data-testid="card-apply-form"
        >
          <ApplyKindField config={config} isPhysical={isPhysical} />
          <ApplyCardFields config={config} isPhysical={isPhysical} />
          {isPhysical && <ShippingFields />}
          <ApplyFeeFields config={config} isPhysical={isPhysical} />
          {apply.error && (
            <Alert
              type="error"
              showIcon
              style={{ marginBottom: 12 }}
              message={apply.error}
              data-testid="card-apply-error"
            />
          )}
          <Button type="primary" htmlType="submit" block loading={apply.isPending} data-testid="card-apply-submit">
            {t('apply.submit')}
          </Button>
        </Form>
      )}
    </AppModal>
  );
}

/** The card just created: a success line with its status, its face, and Done. */
function ApplyResult({ card, onDone }: { card: Card; onDone: () => void }) {
  const { t } = useTranslation('cards');
  return (
    <div data-testid="card-apply-result">
      <Result
        status="success"
        title={t(card.kind === 'VIRTUAL' ? 'apply.doneVirtual' : 'apply.donePhysical')}
        subTitle={t(`status.${card.status}`)}
        style={{ paddingBlock: 12 }}
      />
      <CardFace card={card} />
      <Button type="primary" block style={{ marginTop: 16 }} onClick={onDone} data-testid="card-apply-done">
        {t('actions.done')}
      </Button>
    </div>
  );
}
