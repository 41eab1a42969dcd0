import { BUSINESS_CODES } from '@meridian/contracts/codes';
import { isAssetCode } from '@meridian/contracts/money';
import {
  type WalletCoin,
  type WalletRecord,
  type WithdrawCheckBody,
  walletEndpoints,
} from '@meridian/contracts/wallet';
import { Alert, Button, Descriptions, Form, Input, Select } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { pathTo } from '../../../config/paths.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import { useSecuredAction } from '../../../hooks/use-secured-action.ts';
import { useCheckWithdrawal } from '../api/check-withdrawal.ts';
import { useAddressBook } from '../api/get-address-book.ts';
import { useWithdrawLimits } from '../api/get-withdraw-limits.ts';
import { useWalletBalance } from '../../../lib/get-wallet-balance.ts';
import { useInvalidateWallet } from '../api/wallet-keys.ts';
import { useNetworkChoice } from '../hooks/use-network-choice.ts';
import { checkWithdrawAmount, maxWithdrawable, totalDebited } from '../lib/withdraw-rules.ts';
import { CoinNetworkFields } from './coin-network-fields.tsx';
import { WithdrawResult } from './withdraw-result.tsx';
import { money } from '../../../lib/money.ts';
import { MONEY_ROUNDING } from '@meridian/contracts/money-format';

interface WithdrawValues {
  address: string;
  amount: string;
}

/** The withdrawal fields the dry run may name and the form shows inline (the others go to the alert). */
const WITHDRAW_FORM_FIELDS = ['address', 'amount'] as const;
/** Over the withdrawal limit of the user's level: shown under the amount, with the USD left. */
const STATUS_WITHDRAW_LIMIT = BUSINESS_CODES.WITHDRAW_LIMIT_EXCEEDED.code;

/**
 * Withdraw: network, address (or one from the book), amount with its rules, fee; then, before any
 * code is asked, the form's own rules and the server's dry run
 * (`wallet/withdraw/check`: address format and burn list per network, limits, balance, holds), whose
 * refusals are shown on their fields; only then the security check. After it, the result card
 * (item 13) in place of the form. Under the amount: the available balance and what is left of the
 * level's withdrawal limits in USD (rolling 24 hours and this month); a refusal over the
 * limit is shown on the amount.
 */
export function WithdrawForm({ coins, coin }: { coins: WalletCoin[]; coin: string }) {
  const { t } = useTranslation('wallet');
  const navigate = useNavigate();
  const [form] = Form.useForm<WithdrawValues>();
  const { network, setNetwork, net } = useNetworkChoice(coins, coin, 'withdraw');
  const balance = useWalletBalance();
  const book = useAddressBook();
  const withdrawLimits = useWithdrawLimits();
  const invalidate = useInvalidateWallet();
  const checkWithdrawal = useCheckWithdrawal();
  const [formError, setFormError] = useState<string | null>(null);
  const [result, setResult] = useState<WalletRecord | null>(null);
  const amount = Form.useWatch('amount', form) ?? '';
  const available =
    balance.data?.wallet.accounts[0]?.assets.find((a) => a.coinCode === coin && a.type === 'available')?.amount ?? '0';
  const hasNothing = balance.data !== undefined && /^0(\.0*)?$/.test(available);
  const limits = net
    ? { coin, withdrawMin: net.withdrawMin, withdrawMax: net.withdrawMax, withdrawFee: net.withdrawFee, available }
    : undefined;
  const debited = net ? totalDebited(amount, net.withdrawFee, coin) : undefined;
  const bookOptions = useMemo(
    () =>
      (book.data ?? [])
        .filter((entry) => entry.network === network)
        .map((entry) => ({ value: entry.address, label: `${entry.label} · ${entry.address}` })),
    [book.data, network],
  );

  const withdraw = useSecuredAction({
    endpoint: walletEndpoints.withdraw,
    // The result card is the confirmation: no generic "Success" toast over it.
    quietSuccess: true,
    onSuccess: (content) => {
      setResult(content);
      form.resetFields();
      invalidate();
    },
  });
  const openWithdrawal = (body: WithdrawCheckBody) => withdraw.run({ body });

  const submit = (values: WithdrawValues) => {
    if (!network || !isAssetCode(coin)) return;
    setFormError(null);
    const body = { coin, network, address: values.address.trim(), amount: values.amount.trim() };
    checkWithdrawal.mutate(body, {
      onSuccess: () => openWithdrawal(body),
      onError: (error) => {
        if (!(error instanceof ApiError)) return;
        if (error.response.statusCode === STATUS_WITHDRAW_LIMIT) {
          form.setFields([{ name: 'amount', errors: [error.response.message] }]);
          void withdrawLimits.refetch();
          return;
        }
        setFormError(applyServerErrors(form, error.response, WITHDRAW_FORM_FIELDS));
      },
    });
  };

  if (result) return <WithdrawResult record={result} onAgain={() => setResult(null)} />;

  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={submit}
      onValuesChange={() => setFormError(null)}
      data-testid="withdraw-form"
    >
      {hasNothing && (
        <Alert
          type="info"
          showIcon
          message={t('empty.noCoin', { coin })}
          action={
            <Link to={pathTo('DepositWallet', { coin })}>
              <Button size="small" type="primary" data-testid="withdraw-deposit-link">
                {t('empty.deposit')}
              </Button>
            </Link>
          }
          style={{ marginBottom: 16 }}
          data-testid="withdraw-empty"
        />
      )}
      <CoinNetworkFields
        coins={coins}
        coin={coin}
        network={network}
        direction="withdraw"
        onCoinChange={(next) => void navigate(pathTo('WithdrawWallet', { coin: next }))}
        onNetworkChange={setNetwork}
      />
      <Form.Item
        label={t('withdraw.address')}
        name="address"
        rules={[{ required: true, whitespace: true, message: t('withdraw.addressRequired') }]}
      >
        <Input placeholder={t('withdraw.addressPlaceholder')} data-testid="withdraw-address" autoComplete="off" />
      </Form.Item>
      {bookOptions.length > 0 && (
        <Form.Item>
          <Select
            aria-label={t('withdraw.fromBook')}
            placeholder={t('withdraw.fromBook')}
            options={bookOptions}
            onChange={(value: string) => form.setFieldValue('address', value)}
            data-testid="withdraw-book"
          />
        </Form.Item>
      )}
      <Form.Item
        label={t('withdraw.amount')}
        name="amount"
        extra={
          <>
            <div>
              {t('withdraw.available', {
                amount: money(available, coin, { unit: 'none', rounding: MONEY_ROUNDING.available }),
                coin,
              })}
            </div>
            {withdrawLimits.data && (
              <div data-testid="withdraw-limits-left">
                {t('withdraw.limitLeft', {
                  per24h: money(withdrawLimits.data.per24h.leftUsd, 'USD', {
                    unit: 'none',
                    rounding: MONEY_ROUNDING.available,
                  }),
                  perMonth: money(withdrawLimits.data.perMonth.leftUsd, 'USD', {
                    unit: 'none',
                    rounding: MONEY_ROUNDING.available,
                  }),
                })}
              </div>
            )}
          </>
        }
        rules={[
          { required: true, message: t('withdraw.amountRequired') },
          {
            validator: async (_rule, value: string | undefined) => {
              if (!value || !limits) return;
              const problem = checkWithdrawAmount(value, limits);
              if (problem) throw new Error(t(`withdraw.rules.${problem.key}`, problem));
            },
          },
        ]}
      >
        <Input
          inputMode="decimal"
          data-testid="withdraw-amount"
          suffix={
            <Button
              type="link"
              size="small"
              disabled={!limits}
              onClick={() => limits && form.setFieldValue('amount', maxWithdrawable(limits))}
              data-testid="withdraw-max"
            >
              {t('withdraw.max')}
            </Button>
          }
        />
      </Form.Item>
      {net && (
        <Descriptions size="small" column={1} style={{ marginBottom: 16 }}>
          <Descriptions.Item label={t('withdraw.limits')}>
            {t('withdraw.limitsValue', {
              min: money(net.withdrawMin, coin, { unit: 'none' }),
              max: money(net.withdrawMax, coin, { unit: 'none' }),
              coin,
            })}
          </Descriptions.Item>
          <Descriptions.Item label={t('withdraw.fee')}>
            <span data-testid="withdraw-fee">{money(net.withdrawFee, coin, { rounding: MONEY_ROUNDING.owed })}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('withdraw.received')}>{amount ? money(amount, coin) : '—'}</Descriptions.Item>
          <Descriptions.Item label={t('withdraw.debited')}>{debited ? money(debited, coin) : '—'}</Descriptions.Item>
        </Descriptions>
      )}
      <Alert type="info" showIcon message={t('withdraw.internalNote')} style={{ marginBottom: 16 }} />
      {formError && (
        <Alert type="error" showIcon message={formError} style={{ marginBottom: 16 }} data-testid="withdraw-error" />
      )}
      <Button
        type="primary"
        htmlType="submit"
        block
        disabled={!net}
        loading={checkWithdrawal.isPending || withdraw.isPending}
        data-testid="withdraw-submit"
      >
        {t('withdraw.submit')}
      </Button>
    </Form>
  );
}
