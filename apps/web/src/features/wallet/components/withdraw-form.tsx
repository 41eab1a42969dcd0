import type { WalletCoin } from '@meridian/contracts/wallet';
import { Alert, Button, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { pathTo } from '../../../config/paths.ts';
import { useWalletBalance } from '../../../lib/get-wallet-balance.ts';
import { useWithdrawLimits } from '../api/get-withdraw-limits.ts';
import { useNetworkChoice } from '../hooks/use-network-choice.ts';
import { useWithdrawSubmit, type WithdrawValues } from '../hooks/use-withdraw-submit.ts';
import { CoinNetworkFields } from './coin-network-fields.tsx';
import { WithdrawAddressFields } from './withdraw-address-fields.tsx';
import { WithdrawAmountField } from './withdraw-amount-field.tsx';
import { WithdrawResult } from './withdraw-result.tsx';
import { WithdrawSummary } from './withdraw-summary.tsx';

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
  const withdrawLimits = useWithdrawLimits();
  const sending = useWithdrawSubmit({ form, coin, network, onLimitRefused: () => void withdrawLimits.refetch() });
  const amount = Form.useWatch('amount', form) ?? '';
  const available =
    balance.data?.wallet.accounts[0]?.assets.find((a) => a.coinCode === coin && a.type === 'available')?.amount ?? '0';
  const hasNothing = balance.data !== undefined && /^0(\.0*)?$/.test(available);
  const limits = net
    ? { coin, withdrawMin: net.withdrawMin, withdrawMax: net.withdrawMax, withdrawFee: net.withdrawFee, available }
    : undefined;

  if (sending.result) return <WithdrawResult record={sending.result} onAgain={sending.clearResult} />;

  return (
    <Form
      form={form}
      layout="vertical"
      requiredMark={false}
      onFinish={sending.submit}
      onValuesChange={sending.clearFormError}
      data-testid="withdraw-form"
    >
      {hasNothing && <NoCoinAlert coin={coin} />}
      <CoinNetworkFields
        coins={coins}
        coin={coin}
        network={network}
        direction="withdraw"
        onCoinChange={(next) => void navigate(pathTo('WithdrawWallet', { coin: next }))}
        onNetworkChange={setNetwork}
      />
      <WithdrawAddressFields network={network} />
      <WithdrawAmountField coin={coin} available={available} limits={limits} limitsLeft={withdrawLimits.data} />
      {net && <WithdrawSummary coin={coin} net={net} amount={amount} />}
      <Alert type="info" showIcon message={t('withdraw.internalNote')} style={{ marginBottom: 16 }} />
      {sending.formError && (
        <Alert
          type="error"
          showIcon
          message={sending.formError}
          style={{ marginBottom: 16 }}
          data-testid="withdraw-error"
        />
      )}
      <Button
        type="primary"
        htmlType="submit"
        block
        disabled={!net}
        loading={sending.isPending}
        data-testid="withdraw-submit"
      >
        {t('withdraw.submit')}
      </Button>
    </Form>
  );
}

/** Nothing of `coin` to withdraw: says so, with a link to deposit it. */
function NoCoinAlert({ coin }: { coin: string }) {
  const { t } = useTranslation('wallet');
  return (
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
  );
}
