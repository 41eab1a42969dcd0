import { isAssetCode } from '@meridian/contracts/money';
import type { WalletCoin } from '@meridian/contracts/wallet';
import { Alert, Form, Skeleton, Space, Typography } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { pathTo } from '../../../config/paths.ts';
import { useDepositAddress } from '../api/get-deposit-address.ts';
import { useNetworkChoice } from '../hooks/use-network-choice.ts';
import { CoinNetworkFields } from './coin-network-fields.tsx';
import { RecentDeposits } from './recent-deposits.tsx';

/** The QR code and its library load after the page, in a box of the code's size. */
const QRCodeSVG = lazy(() => import('qrcode.react').then((m) => ({ default: m.QRCodeSVG })));
const QR_SIZE = 168;

/**
 * Deposit: the user's address on the chosen network, its QR code and the network warnings, then the
 * coin's latest deposits with their confirmations ("Pending · k of N", then credited), kept live.
 */
export function DepositPanel({ coins, coin }: { coins: WalletCoin[]; coin: string }) {
  const { t } = useTranslation('wallet');
  const navigate = useNavigate();
  const { network, setNetwork, net } = useNetworkChoice(coins, coin, 'deposit');
  const address = useDepositAddress(coin, network);
  return (
    <Form layout="vertical" data-testid="deposit-panel">
      <CoinNetworkFields
        coins={coins}
        coin={coin}
        network={network}
        direction="deposit"
        onCoinChange={(next) => void navigate(pathTo('DepositWallet', { coin: next }))}
        onNetworkChange={setNetwork}
      />
      {network && (
        <>
          {address.isLoading && <Skeleton active />}
          {address.data && (
            <Space direction="vertical" size="middle" style={{ width: '100%' }}>
              <div style={{ textAlign: 'center' }}>
                <Suspense fallback={<div style={{ width: QR_SIZE, height: QR_SIZE, margin: '0 auto' }} />}>
                  <QRCodeSVG
                    value={address.data.address}
                    size={QR_SIZE}
                    title={t('deposit.qrTitle', { coin, network })}
                    data-testid="deposit-qr"
                  />
                </Suspense>
              </div>
              <Typography.Paragraph
                copyable={{ text: address.data.address }}
                code
                data-testid="deposit-address"
                style={{ wordBreak: 'break-all', textAlign: 'center' }}
              >
                {address.data.address}
              </Typography.Paragraph>
              <Alert
                type="warning"
                showIcon
                message={t('deposit.warningTitle')}
                description={
                  <ul style={{ margin: 0, paddingInlineStart: 18 }}>
                    <li>{t('deposit.onlyCoin', { coin, network })}</li>
                    <li>{t('deposit.confirmations', { count: net?.confirmationsRequired ?? 0 })}</li>
                    <li>{t('deposit.wrongNetwork')}</li>
                  </ul>
                }
              />
              {isAssetCode(coin) && <RecentDeposits coin={coin} />}
            </Space>
          )}
        </>
      )}
    </Form>
  );
}
