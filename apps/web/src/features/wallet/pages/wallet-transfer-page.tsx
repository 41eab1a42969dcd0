import { Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageFrame } from '../../../components/page-frame.tsx';
import { RequireUser } from '../../../components/require-user.tsx';
import { DEFAULT_WALLET_COIN, pathTo } from '../../../config/paths.ts';
import { useRouteMeta } from '../../../hooks/use-route-meta.ts';
import { useWalletCoins } from '../../../lib/get-wallet-coins.ts';
import { DepositPanel } from '../components/deposit-panel.tsx';
import { WithdrawForm } from '../components/withdraw-form.tsx';

/**
 * /account/wallet/deposit/:coin and /account/wallet/withdraw/:coin: Deposit and Withdraw
 * tabs for the chosen coin.
 */
export function WalletTransferPage() {
  const { t } = useTranslation('wallet');
  const { current } = useRouteMeta();
  const coin = (useParams().coin ?? DEFAULT_WALLET_COIN).toUpperCase();
  const isWithdraw = current === 'WithdrawWallet';
  const coins = useWalletCoins();

  return (
    <div className="container section">
      <PageFrame
        title={t(isWithdraw ? 'transfer.withdrawTitle' : 'transfer.depositTitle', { coin })}
        subtitle={t('transfer.subtitle')}
        tabs={{
          activeKey: current,
          items: [
            { key: 'DepositWallet', label: t('transfer.deposit'), to: pathTo('DepositWallet', { coin }) },
            { key: 'WithdrawWallet', label: t('transfer.withdraw'), to: pathTo('WithdrawWallet', { coin }) },
          ],
        }}
      >
        <RequireUser>
          <div className="content-card" style={{ maxWidth: 640 }}>
            {!coins.data ? (
              <Skeleton active />
            ) : isWithdraw ? (
              <WithdrawForm coins={coins.data} coin={coin} />
            ) : (
              <DepositPanel coins={coins.data} coin={coin} />
            )}
          </div>
        </RequireUser>
      </PageFrame>
    </div>
  );
}
