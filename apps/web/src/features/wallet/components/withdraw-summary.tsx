import { MONEY_ROUNDING } from '@meridian/contracts/money-format';
import type { WalletCoin } from '@meridian/contracts/wallet';
import { Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import { money } from '../../../lib/money.ts';
import { totalDebited } from '../lib/withdraw-rules.ts';

/** Props of {@link WithdrawSummary}. */
export interface WithdrawSummaryProps {
  coin: string;
  /** The chosen network's settings (limits and fee, in the coin's units). */
  net: WalletCoin['nets'][number];
  /** The amount typed (what the address receives); '' when none. */
  amount: string;
}

/** The withdrawal's figures under the form: the network's limits, the fee, the amount received and the total debited. */
export function WithdrawSummary({ coin, net, amount }: WithdrawSummaryProps) {
  const { t } = useTranslation('wallet');
  const debited = totalDebited(amount, net.withdrawFee, coin);
  return (
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
  );
}
