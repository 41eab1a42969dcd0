import {
  type FundOrder,
  type FundProduct,
  type FundRedeemBody,
  fundEndpoints,
  fundRedeemBodySchema,
} from '@meridian/contracts/funds';
import { toLocale } from '@meridian/contracts/locale';
import { Alert, Button, Descriptions, Form, Input, Radio, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/app-modal.tsx';
import { useModalForm } from '../../../hooks/use-modal-form.ts';
import { useBankAccounts } from '../../../lib/get-bank-accounts.ts';
import { useFundAsset } from '../api/get-fund-asset.ts';
import { useFundConfig } from '../api/get-fund-config.ts';
import { useInvalidateFunds } from '../api/fund-keys.ts';
import { checkFundAmount, ORDER_FIELD_OF_CODE } from '../lib/amount-rules.ts';
import { contractErrors } from '../../../lib/contract-errors.ts';
import { BankAccountField, CoinField, OrderFormFoot, orderBodyOf, type OrderValues } from './fund-form-parts.tsx';
import { money } from '../../../lib/money.ts';
import { MONEY_ROUNDING } from '@meridian/contracts/money-format';

type RedeemActionType = FundRedeemBody['actionType'];

type RedeemValues = OrderValues<RedeemActionType>;

/**
 * Redeem current-fund shares: to the WALLET in a chosen stablecoin (instant, 1:1) or
 * to USD by a wire to a bound bank account, processed by an operator, with the expected wire times
 * (domestic 30 min–2 h, international 1–5 days). At most the usable shares; the server's
 * refusals of the amount, coin or bank account are shown on their field.
 */
export function RedeemModal({ product, onClose }: { product: FundProduct; onClose: () => void }) {
  const { t, i18n } = useTranslation('funds');
  const locale = toLocale(i18n.language);
  const config = useFundConfig();
  const invalidate = useInvalidateFunds();
  const order = useModalForm<RedeemValues, typeof fundEndpoints.redeem>({
    endpoint: fundEndpoints.redeem,
    quietSuccess: true,
    fieldOfCode: ORDER_FIELD_OF_CODE,
    onSuccess: invalidate,
    onClose,
  });
  const { form } = order;
  const actionTypes = product.redeemActionTypes.filter((type): type is RedeemActionType => type !== 'FUND');
  const actionType = Form.useWatch('actionType', form) ?? actionTypes[0] ?? 'WALLET';
  const banks = useBankAccounts(actionType === 'USD');

  const submit = (values: RedeemValues) => {
    const body: FundRedeemBody = orderBodyOf(product.productId, values);
    const errors = contractErrors(fundRedeemBodySchema, body, locale);
    if (errors.length > 0) {
      form.setFields(errors.map((e) => ({ name: e.name as keyof RedeemValues, errors: e.errors })));
      return;
    }
    order.submit({ body });
  };

  return (
    <AppModal
      open
      title={t('redeem.title', { name: product.productName })}
      footer={null}
      onCancel={order.close}
      data-testid="redeem-modal"
    >
      {order.result ? (
        <RedeemResult order={order.result} onClose={order.close} />
      ) : (
        <Form<RedeemValues>
          {...order.formProps}
          layout="vertical"
          requiredMark={false}
          initialValues={{ actionType: actionTypes[0] ?? 'WALLET', coin: 'USDT' }}
          onFinish={submit}
          data-testid="redeem-form"
        >
          <Form.Item name="actionType" label={t('form.destination')}>
            <Radio.Group
              optionType="button"
              buttonStyle="solid"
              data-testid="fund-destination"
              options={actionTypes.map((type) => ({ value: type, label: t(`destination.${type}`) }))}
            />
          </Form.Item>
          {actionType === 'WALLET' && <CoinField config={config.data} showBalance={false} />}
          {actionType === 'USD' && <BankAccountField accounts={banks.data} isLoading={banks.isPending} />}
          {actionType === 'USD' && config.data && <WireTimes wireTimes={config.data.wireTimes} />}
          <RedeemAmountField product={product} />
          <OrderFormFoot
            error={order.error}
            isPending={order.isPending}
            isDisabled={actionType === 'USD' && (banks.data === undefined || banks.data.length === 0)}
            label={t('redeem.submit')}
          />
        </Form>
      )}
    </AppModal>
  );
}

/** The expected times of a wire to the user's bank (domestic, international). */
function WireTimes({ wireTimes }: { wireTimes: { domestic: string; international: string } }) {
  const { t } = useTranslation('funds');
  return (
    <Alert
      type="info"
      showIcon
      style={{ marginBottom: 16 }}
      data-testid="wire-times"
      message={t('redeem.wireTimesTitle')}
      description={
        <>
          <div>{t('redeem.domestic', { time: wireTimes.domestic })}</div>
          <div>{t('redeem.international', { time: wireTimes.international })}</div>
        </>
      }
    />
  );
}

/** The shares to redeem: at least the product's minimum, at most the usable shares (Max fills them in). */
function RedeemAmountField({ product }: { product: FundProduct }) {
  const { t } = useTranslation('funds');
  const form = Form.useFormInstance<RedeemValues>();
  const config = useFundConfig();
  const asset = useFundAsset();
  const option = config.data?.subscribeOptions.find((o) => o.id === product.productId);
  const usable = asset.data?.currentProduct.usableShares;
  const bounds = { min: option?.redeemMin, available: usable };
  return (
    <Form.Item
      name="amount"
      label={t('form.shares')}
      extra={
        <>
          {usable !== undefined && (
            <div data-testid="fund-available">
              {t('form.usableShares', {
                amount: money(usable, 'USD', { unit: 'none', rounding: MONEY_ROUNDING.available }),
              })}
            </div>
          )}
          {option?.redeemMin && (
            <div>{t('form.redeemMin', { amount: money(option.redeemMin, 'USD', { unit: 'none' }) })}</div>
          )}
        </>
      }
      rules={[
        { required: true, message: t('form.amountRequired') },
        {
          validator: async (_rule, value: string | undefined) => {
            if (!value) return;
            const problem = checkFundAmount(value, bounds);
            if (problem)
              throw new Error(t(`rules.${problem.key === 'insufficient' ? 'aboveUsable' : problem.key}`, problem));
          },
        },
      ]}
    >
      <Input
        inputMode="decimal"
        autoComplete="off"
        data-testid="fund-amount"
        suffix={
          <Button
            type="link"
            size="small"
            disabled={usable === undefined}
            onClick={() => usable !== undefined && form.setFieldValue('amount', usable)}
            data-testid="fund-max"
          >
            {t('form.max')}
          </Button>
        }
      />
    </Form.Item>
  );
}

/** The redemption done (to the wallet) or pending (a wire, with its reference). */
function RedeemResult({ order, onClose }: { order: FundOrder; onClose: () => void }) {
  const { t } = useTranslation('funds');
  return (
    <div data-testid="redeem-result">
      <Result
        status={order.status === 'PENDING' ? 'info' : 'success'}
        title={order.status === 'PENDING' ? t('redeem.pendingTitle') : t('redeem.doneTitle')}
        subTitle={
          order.actionType === 'WALLET'
            ? t('redeem.doneWallet', { amount: money(order.amount, 'USD', { unit: 'none' }), coin: order.coin ?? '' })
            : t('redeem.doneWire', { amount: money(order.amount, 'USD', { unit: 'none' }) })
        }
        style={{ paddingBlock: 16 }}
      />
      {order.wire && (
        <Descriptions size="small" column={1}>
          <Descriptions.Item label={t('wire.reference')}>{order.wire.reference}</Descriptions.Item>
        </Descriptions>
      )}
      <Button type="primary" block onClick={onClose} data-testid="redeem-done">
        {t('actions.done')}
      </Button>
    </div>
  );
}
