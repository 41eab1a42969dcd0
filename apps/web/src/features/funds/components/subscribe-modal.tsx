import {
  type FundActionType,
  type FundOrder,
  type FundProduct,
  type FundSubscribeBody,
  fundEndpoints,
  fundSubscribeBodySchema,
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
import { checkFundAmount, limitLeftOf, ORDER_FIELD_OF_CODE, usableUsdOf } from '../lib/amount-rules.ts';
import { contractErrors } from '../../../lib/contract-errors.ts';
import { percent } from '../lib/format.ts';
import { expectedInterest, tiersOf } from '../lib/interest.ts';
import {
  BankAccountField,
  CoinField,
  OrderFormFoot,
  orderBodyOf,
  type OrderValues,
  useWalletAvailable,
} from './fund-form-parts.tsx';
import { WireInstructions } from './wire-instructions.tsx';
import { money } from '../../../lib/money.ts';
import { MONEY_ROUNDING } from '@meridian/contracts/money-format';

type SubscribeValues = OrderValues<FundActionType>;

/** Days of interest the form previews for the current fund (a fixed fund previews its whole term). */
const PREVIEW_DAYS_CURRENT = 30;

/**
 * Subscribe to a fund: the current fund from the WALLET (a stablecoin, with its
 * balance) or USD (a wire from a bound bank account: Meridian's receiving account and, once the order
 * exists, its unique reference; the order is Pending until the wire arrives); a fixed fund from
 * current-fund shares (FUND). The amount is checked with the contract's schema and the product's
 * rules before the security check; the server's refusals of the amount, coin or bank account are
 * shown on their field.
 */
export function SubscribeModal({ product, onClose }: { product: FundProduct; onClose: () => void }) {
  const { t, i18n } = useTranslation('funds');
  const locale = toLocale(i18n.language);
  const invalidate = useInvalidateFunds();
  const order = useModalForm<SubscribeValues, typeof fundEndpoints.subscribe>({
    endpoint: fundEndpoints.subscribe,
    quietSuccess: true,
    fieldOfCode: ORDER_FIELD_OF_CODE,
    onSuccess: invalidate,
    onClose,
  });
  const { form } = order;
  const config = useFundConfig();
  const actionTypes = product.subscribeActionTypes;
  const actionType = Form.useWatch('actionType', form) ?? actionTypes[0] ?? 'WALLET';
  const banks = useBankAccounts(actionType === 'USD');

  const submit = (values: SubscribeValues) => {
    const body: FundSubscribeBody = orderBodyOf(product.productId, values);
    const errors = contractErrors(fundSubscribeBodySchema, body, locale);
    if (errors.length > 0) {
      form.setFields(errors.map((e) => ({ name: e.name as keyof SubscribeValues, errors: e.errors })));
      return;
    }
    order.submit({ body });
  };

  return (
    <AppModal
      open
      title={t('subscribe.title', { name: product.productName })}
      footer={null}
      onCancel={order.close}
      data-testid="subscribe-modal"
    >
      {order.result ? (
        <SubscribeResult order={order.result} onClose={order.close} />
      ) : (
        <Form<SubscribeValues>
          {...order.formProps}
          layout="vertical"
          requiredMark={false}
          initialValues={{ actionType: actionTypes[0] ?? 'WALLET', coin: 'USDT' }}
          onFinish={submit}
          data-testid="subscribe-form"
        >
          <Descriptions size="small" column={1} style={{ marginBottom: 12 }}>
            <Descriptions.Item label={t('product.rate')}>{percent(product.annualRate)}</Descriptions.Item>
            {product.interestDate && (
              <Descriptions.Item label={t('product.interestStart')}>{product.interestDate}</Descriptions.Item>
            )}
            {product.maturityDate && (
              <Descriptions.Item label={t('product.maturity')}>{product.maturityDate}</Descriptions.Item>
            )}
          </Descriptions>
          <Form.Item name="actionType" label={t('form.source')}>
            <Radio.Group
              optionType="button"
              buttonStyle="solid"
              data-testid="fund-source"
              options={actionTypes.map((type) => ({ value: type, label: t(`source.${type}`) }))}
            />
          </Form.Item>
          {actionType === 'WALLET' && <CoinField config={config.data} showBalance />}
          {actionType === 'USD' && <BankAccountField accounts={banks.data} isLoading={banks.isPending} />}
          {actionType === 'USD' && config.data && <WireInstructions account={config.data.receivingAccount} />}
          <SubscribeAmountField product={product} actionType={actionType} />
          <OrderFormFoot
            error={order.error}
            isPending={order.isPending}
            isDisabled={actionType === 'USD' && (banks.data === undefined || banks.data.length === 0)}
            label={t('subscribe.submit')}
          />
        </Form>
      )}
    </AppModal>
  );
}

/**
 * The amount with its bounds (minimum, maximum, the product's limit left, what the source holds;
 * Max fills that in) and the interest it would earn over the term (30 days for the current fund).
 */
function SubscribeAmountField({ product, actionType }: { product: FundProduct; actionType: FundActionType }) {
  const { t } = useTranslation('funds');
  const form = Form.useFormInstance<SubscribeValues>();
  const config = useFundConfig();
  const asset = useFundAsset();
  const availableOf = useWalletAvailable();
  const coin = Form.useWatch('coin', form);
  const amount = Form.useWatch('amount', form) ?? '';
  const option = config.data?.subscribeOptions.find((o) => o.id === product.productId);
  const available =
    actionType === 'FUND'
      ? asset.data?.currentProduct.usableShares
      : actionType === 'WALLET' && coin
        ? usableUsdOf(availableOf(coin), coin)
        : undefined;
  const bounds = {
    min: option?.min,
    max: option?.max,
    limitLeft: limitLeftOf(option?.limit, product.holdingShares),
    available,
  };
  const previewDays = product.period > 0 ? product.period : PREVIEW_DAYS_CURRENT;
  const preview = amount ? expectedInterest(amount, tiersOf(product), previewDays) : null;
  return (
    <>
      <Form.Item
        name="amount"
        label={t('form.amount')}
        style={{ marginTop: actionType === 'USD' ? 16 : undefined }}
        extra={
          <>
            {available !== undefined && (
              <div data-testid="fund-available">
                {actionType === 'FUND'
                  ? t('form.availableShares', { amount: money(available, 'USD', { unit: 'none' }) })
                  : t('form.available', {
                      amount: money(available, 'USD', { unit: 'none', rounding: MONEY_ROUNDING.available }),
                      coin: coin ?? '',
                    })}
              </div>
            )}
            {option && (
              <div>
                {t('form.bounds', {
                  min: money(option.min, 'USD', { unit: 'none' }),
                  max: money(option.max, 'USD', { unit: 'none' }),
                })}
              </div>
            )}
            {bounds.limitLeft && (
              <div>{t('form.limitLeft', { amount: money(bounds.limitLeft, 'USD', { unit: 'none' }) })}</div>
            )}
          </>
        }
        rules={[
          { required: true, message: t('form.amountRequired') },
          {
            validator: async (_rule, value: string | undefined) => {
              if (!value) return;
              const problem = checkFundAmount(value, bounds);
              if (problem) throw new Error(t(`rules.${problem.key}`, problem));
            },
          },
        ]}
      >
        <Input
          inputMode="decimal"
          autoComplete="off"
          data-testid="fund-amount"
          suffix={
            available !== undefined ? (
              <Button
                type="link"
                size="small"
                onClick={() => form.setFieldValue('amount', available)}
                data-testid="fund-max"
              >
                {t('form.max')}
              </Button>
            ) : (
              'USD'
            )
          }
        />
      </Form.Item>
      {preview && (
        <Alert
          type="success"
          style={{ marginBottom: 16 }}
          data-testid="fund-preview"
          message={t('form.preview', {
            amount: money(preview.totalMinor, 'USD', { unit: 'none' }),
            count: previewDays,
          })}
        />
      )}
    </>
  );
}

/** The subscription created: done, or for a wire the reference to quote and the Pending status. */
function SubscribeResult({ order, onClose }: { order: FundOrder; onClose: () => void }) {
  const { t } = useTranslation('funds');
  const isPending = order.status === 'PENDING';
  return (
    <div data-testid="subscribe-result">
      <Result
        status={isPending ? 'info' : 'success'}
        title={isPending ? t('subscribe.pendingTitle') : t('subscribe.doneTitle')}
        subTitle={t('subscribe.doneBody', {
          amount: money(order.amount, 'USD', { unit: 'none' }),
          name: order.productName,
        })}
        style={{ paddingBlock: 16 }}
      />
      {order.wire && <WireInstructions account={order.wire.receivingAccount} reference={order.wire.reference} />}
      {order.interestDate && (
        <Descriptions size="small" column={1} style={{ marginTop: 12 }}>
          <Descriptions.Item label={t('product.interestStart')}>{order.interestDate}</Descriptions.Item>
          {order.maturityDate && (
            <Descriptions.Item label={t('product.maturity')}>{order.maturityDate}</Descriptions.Item>
          )}
        </Descriptions>
      )}
      <Button type="primary" block style={{ marginTop: 16 }} onClick={onClose} data-testid="subscribe-done">
        {t('actions.done')}
      </Button>
    </div>
  );
}
