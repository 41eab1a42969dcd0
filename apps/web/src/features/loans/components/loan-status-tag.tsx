import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { loanStatusColour, loanStatusLabelKey } from '../lib/loan-status.ts';

/** A loan order's status (codes 0–9) as its display label in a coloured tag. */
export function LoanStatusTag({ status }: { status: number }) {
  const { t } = useTranslation('loans');
  return (
    <Tag color={loanStatusColour(status)} data-testid="loan-status" data-status={status}>
      {t(loanStatusLabelKey(status))}
    </Tag>
  );
}
