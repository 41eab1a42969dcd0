import {
  type FundOrder,
  type FundProduct,
  type FundRedeemBody,
  type FundStablecoin,
  fundEndpoints,
  fundRedeemBodySchema,
} from '@meridian/contracts/funds';
import { toLocale } from '@meridian/contracts/locale';
import { Alert, Button, Descriptions, Form, Input, Radio, Result } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/app-modal.tsx';
import { openSecurityCheck } from '../../../stores/modal-store.ts';
import { useBankAccounts } from '../../../lib/get-bank-accounts.ts';
import { useFundAsset } from '../api/get-fund-asset.ts';
import { useFundConfig } from '../api/get-fund-config.ts';
import { useInvalidateFunds } from '../api/fund-keys.ts';
import { checkFundAmount } from '../lib/amount-rules.ts';
import { contractErrors } from '../../../lib/contract-errors.ts';
import { BankAccountField, CoinField, showOrderRefusal } from './fund-form-parts.tsx';
import { money } from '../../../lib/money.ts';
import { MONEY_ROUNDING } from '@meridian/contracts/money-format';

type RedeemActionType = FundRedeemBody['actionType'];

interface RedeemValues {
  actionType: RedeemActionType;
  coin?: FundStablecoin;
  bankAccountId?: string;
  amount: string;
}

/**
 * Redeem current-fund shares: to the WALLET in a chosen stablecoin (instant, 1:1) or
 * to USD by a wire to a bound bank account, processed by an operator, with the expected wire times
 * (domestic 30 min–2 h, international 1–5 days). At most the usable shares; the server's
 * refusals of the amount, coin or bank account are shown on their field.
 */
export function RedeemModal({ product, onClose }: { product: FundProduct; onClose: () => void }) {
  const { t, i18n } = useTranslation('funds');
  const locale = toLocale(i18n.language);
  const [form] = Form.useForm<RedeemValues>();
  const config = useFundConfig();
  const asset = useFundAsset();
  const invalidate = useInvalidateFunds();
  const [result, setResult] = useState<FundOrder | null>(null);
  const [formError, setFormError] = useState<string | null>(null);

  const actionTypes = product.redeemActionTypes.filter((type): type is RedeemActionType => type !== 'FUND');
  const actionType = Form.useWatch('actionType', form) ?? actionTypes[0] ?? 'WALLET';
  const banks = useBankAccounts(actionType === 'USD');
  const hasNoBank = banks.data?.length === 0;
  const option = config.data?.subscribeOptions.find((o) => o.id === product.productId);
  const usable = asset.data?.currentProduct.usableShares;
  const bounds = { min: option?.redeemMin, available: usable };

  const submit = (values: RedeemValues) => {
    setFormError(null);
    const body: FundRedeemBody = {
      productId: product.productId,
      amount: values.amount.trim(),
      actionType: values.actionType,
      ...(values.actionType === 'WALLET' && { coin: values.coin }),
      ...(values.actionType === 'USD' && { bankAccountId: values.bankAccountId }),
    };
    const errors = contractErrors(fundRedeemBodySchema, body, locale);
    if (errors.length > 0) {
      form.setFields(errors.map((e) => ({ name: e.name as keyof RedeemValues, errors: e.errors })));
      return;
    }
    openSecurityCheck({
      endpoint: fundEndpoints.redeem,
      input: { body },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
      quietSuccess: true,
      onSuccess: (order) => {
        setResult(order);
        invalidate();
      },
      onFailure: (statusCode, response) => showOrderRefusal(form, statusCode, response.message, setFormError),
    });
  };

  return (
    <AppModal
      open
      title={t('redeem.title', { name: product.productName })}
      footer={null}
      onCancel={onClose}
      data-testid="redeem-modal"
    >
      {result ? (
        <div data-testid="redeem-result">
          <Result
            status={result.status === 'PENDING' ? 'info' : 'success'}
            title={result.status === 'PENDING' ? t('redeem.pendingTitle') : t('redeem.doneTitle')}
            subTitle={
              result.actionType === 'WALLET'
                ? t('redeem.doneWallet', {
                    amount: money(result.amount, 'USD', { unit: 'none' }),
                    coin: result.coin ?? '',
                  })
                : t('redeem.doneWire', { amount: money(result.amount, 'USD', { unit: 'none' }) })
            }
            style={{ paddingBlock: 16 }}
          />
          {result.wire && (
            <Descriptions size="small" column={1}>
              <Descriptions.Item label={t('wire.reference')}>{result.wire.reference}</Descriptions.Item>
            </Descriptions>
          )}
          <Button type="primary" block onClick={onClose} data-testid="redeem-done">
            {t('actions.done')}
          </Button>
        </div>
      ) : (
        <Form<RedeemValues>
          form={form}
          layout="vertical"
          requiredMark={false}
          initialValues={{ actionType: actionTypes[0] ?? 'WALLET', coin: 'USDT' }}
          onFinish={submit}
          onValuesChange={() => setFormError(null)}
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
          {actionType === 'USD' && config.data && (
            <Alert
              type="info"
              showIcon
              style={{ marginBottom: 16 }}
              data-testid="wire-times"
              message={t('redeem.wireTimesTitle')}
              description={
                <>
                  <div>{t('redeem.domestic', { time: config.data.wireTimes.domestic })}</div>
                  <div>{t('redeem.international', { time: config.data.wireTimes.international })}</div>
                </>
              }
            />
          )}
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
                    throw new Error(
                      t(`rules.${problem.key === 'insufficient' ? 'aboveUsable' : problem.key}`, problem),
                    );
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
          <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t('form.noFee')} />
          {formError && (
            <Alert type="error" showIcon style={{ marginBottom: 16 }} message={formError} data-testid="fund-error" />
          )}
          <Button
            type="primary"
            htmlType="submit"
            block
            disabled={actionType === 'USD' && (banks.data === undefined || hasNoBank)}
            data-testid="fund-submit"
          >
            {t('redeem.submit')}
          </Button>
        </Form>
      )}
    </AppModal>
  );
}
