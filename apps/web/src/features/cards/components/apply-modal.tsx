import {
  type ApplyCardBody,
  applyCardBodySchema,
  type CardConfig,
  type CardKind,
  cardEndpoints,
} from '@meridian/contracts/cards';
import { toLocale } from '@meridian/contracts/locale';
import { Alert, Button, Checkbox, Col, Form, Input, Radio, Result, Row, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/app-modal.tsx';
import { useModalForm } from '../../../hooks/use-modal-form.ts';
import { useInvalidateCards } from '../api/card-keys.ts';
import { money } from '../lib/card-format.ts';
import { contractFieldErrors } from '../lib/form-refusals.ts';
import { useWalletAvailable } from '../lib/wallet-available.ts';
import { CardFace } from './card-face.tsx';

interface ApplyValues {
  kind: CardKind;
  network: ApplyCardBody['network'];
  currency: ApplyCardBody['currency'];
  cardholderName: string;
  shippingAddress?: NonNullable<ApplyCardBody['shippingAddress']>;
  isFeeAccepted?: boolean;
}

/** Business codes the apply form shows on a field rather than above the button. */
const FIELD_OF_CODE: Partial<Record<number, string>> = {
  210: 'kind',
};

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
  const { t, i18n } = useTranslation('cards');
  const locale = toLocale(i18n.language);
  const invalidate = useInvalidateCards();
  const availableOf = useWalletAvailable();
  // One idempotency key per opening of the modal: a retry never issues a second card.
  const [idempotencyKey] = useState(() => crypto.randomUUID());
  const apply = useModalForm<ApplyValues, typeof cardEndpoints.applyCard>({
    endpoint: cardEndpoints.applyCard,
    quietSuccess: true,
    fieldOfCode: FIELD_OF_CODE,
    onSuccess: invalidate,
    onClose,
  });
  const { form, result: created } = apply;
  const kind = Form.useWatch('kind', form) ?? 'VIRTUAL';
  const isPhysical = kind === 'PHYSICAL';
  const hasNoPhysicalLeft = config.physicalCardsLeft <= 0;
  const fee = isPhysical ? config.physicalFee : config.virtualFee;
  const isFeeCharged = isPhysical || !config.isVirtualFeeWaived;

  const submit = (values: ApplyValues) => {
    const body: ApplyCardBody = {
      kind: values.kind,
      network: values.network,
      currency: values.currency,
      cardholderName: values.cardholderName.trim(),
      ...(values.kind === 'PHYSICAL' && { shippingAddress: values.shippingAddress }),
    };
    const errors = contractFieldErrors(applyCardBodySchema, body, locale);
    if (errors.length > 0) {
      form.setFields(errors.map((e) => ({ name: e.name as never, errors: e.errors })));
      return;
    }
    apply.submit({ body }, { idempotencyKey });
  };

  return (
    <AppModal open title={t('apply.title')} footer={null} onCancel={apply.close} data-testid="card-apply-modal">
      {created ? (
        <div data-testid="card-apply-result">
          <Result
            status="success"
            title={t(created.kind === 'VIRTUAL' ? 'apply.doneVirtual' : 'apply.donePhysical')}
            subTitle={t(`status.${created.status}`)}
            style={{ paddingBlock: 12 }}
          />
          <CardFace card={created} />
          <Button type="primary" block style={{ marginTop: 16 }} onClick={apply.close} data-testid="card-apply-done">
            {t('actions.done')}
          </Button>
        </div>
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
          onFinish={submit}
          data-testid="card-apply-form"
        >
          <Form.Item name="kind" label={t('apply.kind')}>
            <Radio.Group
              optionType="button"
              buttonStyle="solid"
              data-testid="card-apply-kind"
              options={[
                { value: 'VIRTUAL', label: t('kind.VIRTUAL') },
                { value: 'PHYSICAL', label: t('kind.PHYSICAL'), disabled: hasNoPhysicalLeft },
              ]}
            />
          </Form.Item>
          <Alert
            type="info"
            style={{ marginBottom: 16 }}
            message={
              isPhysical
                ? t('apply.physicalLeft', { count: config.physicalCardsLeft, max: config.physicalCardsMax })
                : t('apply.virtualUnlimited')
            }
            data-testid="card-apply-allowance"
          />
          <Row gutter={12}>
            <Col xs={24} sm={12}>
              <Form.Item name="network" label={t('apply.network')}>
                <Radio.Group
                  data-testid="card-apply-network"
                  options={config.networks.map((network) => ({ value: network, label: t(`network.${network}`) }))}
                />
              </Form.Item>
            </Col>
            <Col xs={24} sm={12}>
              <Form.Item name="currency" label={t('apply.currency')}>
                <Select
                  data-testid="card-apply-currency"
                  options={(isPhysical ? config.currencies : config.virtualCurrencies).map((currency) => ({
                    value: currency,
                    label: currency,
                  }))}
                />
              </Form.Item>
            </Col>
          </Row>
          <Form.Item
            name="cardholderName"
            label={t('apply.cardholderName')}
            extra={t('apply.cardholderNameHelp')}
            rules={[{ required: true, message: t('apply.required') }]}
          >
            <Input autoComplete="name" maxLength={26} data-testid="card-apply-name" />
          </Form.Item>
          {isPhysical && <ShippingFields />}
          <Alert
            type={isFeeCharged ? 'warning' : 'success'}
            showIcon
            style={{ marginBottom: 12 }}
            data-testid="card-apply-fee"
            message={
              isFeeCharged
                ? t('apply.fee', { amount: money(fee.amount, fee.coin) })
                : t('apply.feeWaived', { amount: money(fee.amount, fee.coin) })
            }
            description={
              isFeeCharged ? t('apply.walletUsdt', { amount: money(availableOf(fee.coin), fee.coin) }) : undefined
            }
          />
          {isFeeCharged && (
            <Form.Item
              name="isFeeAccepted"
              valuePropName="checked"
              rules={[
                {
                  validator: async (_rule, value: boolean | undefined) => {
                    if (!value) throw new Error(t('apply.feeRequired'));
                  },
                },
              ]}
            >
              <Checkbox data-testid="card-apply-fee-accept">
                {t('apply.feeAccept', { amount: money(fee.amount, fee.coin) })}
              </Checkbox>
            </Form.Item>
          )}
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

/** The shipping address of a physical card (contract `shippingAddressSchema`). */
function ShippingFields() {
  const { t } = useTranslation('cards');
  const required = [{ required: true, message: t('apply.required') }];
  return (
    <fieldset className="card-apply__address" data-testid="card-apply-address">
      <legend>{t('apply.address')}</legend>
      <Form.Item name={['shippingAddress', 'recipient']} label={t('apply.recipient')} rules={required}>
        <Input autoComplete="shipping name" data-testid="card-address-recipient" />
      </Form.Item>
      <Form.Item name={['shippingAddress', 'line1']} label={t('apply.line1')} rules={required}>
        <Input autoComplete="shipping address-line1" data-testid="card-address-line1" />
      </Form.Item>
      <Form.Item name={['shippingAddress', 'line2']} label={t('apply.line2')}>
        <Input autoComplete="shipping address-line2" />
      </Form.Item>
      <Row gutter={12}>
        <Col xs={24} sm={12}>
          <Form.Item name={['shippingAddress', 'city']} label={t('apply.city')} rules={required}>
            <Input autoComplete="shipping address-level2" data-testid="card-address-city" />
          </Form.Item>
        </Col>
        <Col xs={12} sm={6}>
          <Form.Item name={['shippingAddress', 'postalCode']} label={t('apply.postalCode')}>
            <Input autoComplete="shipping postal-code" />
          </Form.Item>
        </Col>
        <Col xs={12} sm={6}>
          <Form.Item
            name={['shippingAddress', 'country']}
            label={t('apply.country')}
            rules={required}
            normalize={(value: string | undefined) => value?.toUpperCase()}
          >
            <Input maxLength={2} autoComplete="shipping country" data-testid="card-address-country" />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name={['shippingAddress', 'phone']} label={t('apply.phone')} rules={required}>
        <Input inputMode="tel" autoComplete="tel" data-testid="card-address-phone" />
      </Form.Item>
    </fieldset>
  );
}
