import type { FundOrder, FundOrderStatus } from '@meridian/contracts/funds';
import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** Colours of the order statuses (as the withdrawal statuses: waiting default/warning, done success, failed error). */
const STATUS_COLOURS: Record<FundOrderStatus, string> = {
  PENDING: 'warning',
  HOLDING: 'processing',
  SUCCESS: 'success',
  FAILED: 'error',
  MATURED: 'success',
};

export function FundStatusTag({ status }: { status: FundOrderStatus }) {
  const { t } = useTranslation('funds');
  return (
    <Tag color={STATUS_COLOURS[status]} data-testid="fund-order-status">
      {t(`status.${status}`)}
    </Tag>
  );
}

/** Where the money came from or went: "Wallet · USDT", "Bank wire", "Current fund shares"; "—" for interest and maturity. */
export function useChannelLabel() {
  const { t } = useTranslation('funds');
  return (order: FundOrder) => {
    if (order.actionType === null) return '—';
    if (order.actionType === 'WALLET') return t('channel.WALLET', { coin: order.coin ?? '' });
    return t(`channel.${order.actionType}`);
  };
}
