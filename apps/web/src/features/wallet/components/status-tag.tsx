import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';

/** Withdraw status colours: 0 default, 1 warning, 2 success, 3 error, 4 default. */
const COLOURS = ['default', 'warning', 'success', 'error', 'default'] as const;

/** A withdrawal's (or deposit's: 0 pending, 2 credited) status as a coloured tag. */
export function StatusTag({ status, action }: { status: number; action: 'deposit' | 'withdraw' }) {
  const { t } = useTranslation('wallet');
  const label = action === 'deposit' ? t(status === 2 ? 'status.credited' : 'status.pending') : t(`status.${status}`);
  return (
    <Tag color={COLOURS[status] ?? 'default'} data-testid="status-tag">
      {label}
    </Tag>
  );
}
