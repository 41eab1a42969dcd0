import type { CardConfig } from '@meridian/contracts/cards';
import { Alert, Checkbox, Col, Form, Input, Radio, Row, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { money } from '../lib/card-format.ts';
import { useWalletAvailable } from '../lib/wallet-available.ts';

/** The kind (virtual, or physical while any is left) and what the user may still apply for. */
export function ApplyKindField({ config, isPhysical }: { config: CardConfig; isPhysical: boolean }) {
  const { t } = useTranslation('cards');
  return (
    <>
      <Form.Item name="kind" label={t('apply.kind')}>
        <Radio.Group
          optionType="button"
          buttonStyle="solid"
          data-testid="card-apply-kind"
          options={[
            { value: 'VIRTUAL', label: t('kind.VIRTUAL') },
            { value: 'PHYSICAL', label: t('kind.PHYSICAL'), disabled: config.physicalCardsLeft <= 0 },
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
    </>
  );
}

/** The network, the currency (a physical card's or a virtual card's list) and the cardholder name. */
export function ApplyCardFields({ config, isPhysical }: { config: CardConfig; isPhysical: boolean }) {
  const { t } = useTranslation('cards');
  return (
    <>
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
    </>
  );
}

/**
 * The issuing fee: waived (a virtual card during the promotion) or charged, then shown with the
 * wallet's amount of the fee's coin and to be accepted before applying.
 */
export function ApplyFeeFields({ config, isPhysical }: { config: CardConfig; isPhysical: boolean }) {
  const { t } = useTranslation('cards');
  const availableOf = useWalletAvailable();
  const fee = isPhysical ? config.physicalFee : config.virtualFee;
  const isFeeCharged = isPhysical || !config.isVirtualFeeWaived;
  return (
    <>
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
    </>
  );
}

/** The shipping address of a physical card (contract `shippingAddressSchema`). */
export function ShippingFields() {
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
