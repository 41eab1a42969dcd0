import { FUND_STABLECOINS, type FundConfig, type FundStablecoin } from '@meridian/contracts/funds';
import { Alert, Button, Form, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../../config/paths.ts';
import { useWalletBalance } from '../../../lib/get-wallet-balance.ts';
import type { BankAccount } from '@meridian/contracts/payments';
import { usableUsdOf } from '../lib/amount-rules.ts';
import { money } from '../../../lib/money.ts';

/** The wallet's available amount of a coin, as the wire decimal (0 when the balance is not loaded). */
export function useWalletAvailable(): (coin: FundStablecoin) => string {
  const balance = useWalletBalance();
  return (coin) =>
    balance.data?.wallet.accounts[0]?.assets.find((a) => a.coinCode === coin && a.type === 'available')?.amount ?? '0';
}

/** The stablecoin select: each coin with its wallet balance; a coin outside its 1:1 band is disabled. */
export function CoinField({ config, showBalance }: { config: FundConfig | undefined; showBalance: boolean }) {
  const { t } = useTranslation('funds');
  const availableOf = useWalletAvailable();
  const isAtPar = (coin: FundStablecoin) => config?.coins.find((c) => c.coin === coin)?.isAtPar ?? true;
  return (
    <Form.Item name="coin" label={t('form.coin')} rules={[{ required: true, message: t('form.coinRequired') }]}>
      <Select
        data-testid="fund-coin"
        options={FUND_STABLECOINS.map((coin) => ({
          value: coin,
          disabled: !isAtPar(coin),
          label: !isAtPar(coin)
            ? t('form.coinOffPeg', { coin })
            : showBalance
              ? t('form.coinWithBalance', {
                  coin,
                  amount: money(usableUsdOf(availableOf(coin), coin), 'USD', { unit: 'none' }),
                })
              : coin,
        }))}
      />
    </Form.Item>
  );
}

/** A bank account as the select shows it: bank, the number's last 4 characters, domestic or international. */
export function bankAccountLabel(account: BankAccount, scope: string): string {
  return `${account.bankName} · ••••${account.accountNumber.slice(-4)} · ${scope}`;
}

/** The bound bank account select of the USD option, or a link to add one when there is none. */
export function BankAccountField({ accounts, isLoading }: { accounts: BankAccount[] | undefined; isLoading: boolean }) {
  const { t } = useTranslation('funds');
  if (accounts === undefined) {
    return (
      <Form.Item label={t('form.bankAccount')}>
        <Select loading={isLoading} disabled data-testid="fund-bank" />
      </Form.Item>
    );
  }
  if (accounts.length === 0) {
    return (
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        message={t('form.noBankAccount')}
        data-testid="fund-no-bank"
        action={
          <Link to={pathTo('AddBank')}>
            <Button size="small">{t('form.addBankAccount')}</Button>
          </Link>
        }
      />
    );
  }
  return (
    <Form.Item
      name="bankAccountId"
      label={t('form.bankAccount')}
      rules={[{ required: true, message: t('form.bankAccountRequired') }]}
    >
      <Select
        data-testid="fund-bank"
        options={accounts.map((a) => ({
          value: String(a.id),
          label: bankAccountLabel(a, a.isDomestic ? t('form.domestic') : t('form.international')),
        }))}
      />
    </Form.Item>
  );
}

/** The fields of a subscription or redemption form (the destination's coin or bank account as it needs). */
export interface OrderValues<ActionType extends string> {
  actionType: ActionType;
  coin?: FundStablecoin;
  bankAccountId?: string;
  amount: string;
}

/** The order's body from the form: the coin only to or from the wallet, the bank account only for USD. */
export function orderBodyOf<ActionType extends string>(productId: string, values: OrderValues<ActionType>) {
  return {
    productId,
    amount: values.amount.trim(),
    actionType: values.actionType,
    ...(values.actionType === 'WALLET' && { coin: values.coin }),
    ...(values.actionType === 'USD' && { bankAccountId: values.bankAccountId }),
  };
}

/**
 * The foot of an order form: no fee, the refusal the form shows (`fund-error`) and the submit button,
 * busy while the security check is open and disabled for USD until a bank account is bound.
 */
export function OrderFormFoot({
  error,
  isPending,
  isDisabled,
  label,
}: {
  error: string | null;
  isPending: boolean;
  isDisabled: boolean;
  label: string;
}) {
  const { t } = useTranslation('funds');
  return (
    <>
      <Alert type="info" showIcon style={{ marginBottom: 16 }} message={t('form.noFee')} />
      {error && <Alert type="error" showIcon style={{ marginBottom: 16 }} message={error} data-testid="fund-error" />}
      <Button
        type="primary"
        htmlType="submit"
        block
        loading={isPending}
        disabled={isDisabled}
        data-testid="fund-submit"
      >
        {label}
      </Button>
    </>
  );
}
