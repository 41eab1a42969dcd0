import type { LoanOrder } from '@meridian/contracts/loans';
import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/app-modal.tsx';
import { money } from '../../../lib/money.ts';

/** The receipt shown once a loan is taken: the amount, the coin and the repayment date; `onClose` closes it. */
export function LoanBorrowedModal({ order, onClose }: { order: LoanOrder; onClose: () => void }) {
  const { t } = useTranslation('loans');
  return (
    <AppModal open title={t('borrow.doneTitle')} footer={null} onCancel={onClose} data-testid="loan-borrowed">
      <Result
        status="success"
        title={t('borrow.doneTitle')}
        subTitle={t('borrow.doneBody', {
          amount: money(order.principal, order.loanCoin, { unit: 'none' }),
          coin: order.loanCoin,
          date: order.repaymentDate,
        })}
        extra={
          <Button type="primary" onClick={onClose} data-testid="loan-borrowed-done">
            {t('borrow.done')}
          </Button>
        }
      />
    </AppModal>
  );
}
