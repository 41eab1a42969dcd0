import { Tag } from 'antd';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

/** Withdraw status colours: 0 default, 1 warning, 2 success, 3 error, 4 default. */
const COLOURS = ['default', 'warning', 'success', 'error', 'default'] as const;

/** What the tag shows: a withdrawal's status 0–4, or a deposit's (0 pending, 2 credited) with its confirmations. */
export interface StatusTagProps {
  status: number;
  action: 'deposit' | 'withdraw';
  /** A pending deposit's confirmations so far (the k of "k of N"); null or absent when unknown. */
  confirmations?: number | null | undefined;
  /** A pending deposit's confirmations needed (the N of "k of N"); null or absent when unknown. */
  confirmationsRequired?: number | null | undefined;
}

/** The label of a deposit's status: "Pending · 1 of 3 confirmations" while it waits for N, "Completed" once credited. */
function depositLabel(t: TFunction<'wallet'>, props: StatusTagProps): string {
  const { status, confirmations, confirmationsRequired } = props;
  if (status === 2) return t('status.credited');
  if (typeof confirmations !== 'number' || typeof confirmationsRequired !== 'number' || confirmationsRequired <= 0)
    return t('status.pending');
  return t('status.pendingConfirmations', {
    count: confirmationsRequired,
    confirmations: Math.min(confirmations, confirmationsRequired),
  });
}

/** A withdrawal's (or deposit's: 0 pending k of N, 2 credited) status as a coloured tag. */
export function StatusTag(props: StatusTagProps) {
  const { t } = useTranslation('wallet');
  const { status, action } = props;
  const label = action === 'deposit' ? depositLabel(t, props) : t(`status.${status}`);
  const colour = action === 'deposit' && status === 0 ? 'processing' : (COLOURS[status] ?? 'default');
  return (
    <Tag color={colour} data-testid="status-tag">
      {label}
    </Tag>
  );
}
