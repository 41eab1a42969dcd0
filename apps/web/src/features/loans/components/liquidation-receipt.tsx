import type { LoanLiquidationRecord } from '@meridian/contracts/loans';
import { Button, Descriptions } from 'antd';
import dayjs from 'dayjs';
import Decimal from 'decimal.js';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/app-modal.tsx';
import { pct } from '../lib/format.ts';
import { isZeroAmount } from '../lib/is-zero.ts';
import { LoanStatusTag } from './loan-status-tag.tsx';
import { money } from '../../../lib/money.ts';

/** A shortfall's interest written off: shortfall − principal loss (exact decimal text of the loan coin). */
function writtenOffInterest(record: LoanLiquidationRecord): string {
  return new Decimal(record.shortfall)
    .minus(record.principalLoss ?? '0')
    .toFixed(record.shortfall.split('.')[1]?.length ?? 0);
}

/** The kind of a liquidation as its label key. */
export function liquidationKindKey(kind: LoanLiquidationRecord['kind']): string {
  return kind === 'PARTIAL' ? 'receipt.partial' : kind === 'FULL' ? 'receipt.full' : 'receipt.overdue';
}

/**
 * A liquidation's receipt: the price used and its sources, the
 * collateral sold, the fee, the debt repaid, the collateral returned, the LTV before and after, and
 * any shortfall the platform bore. The debt repaid is split into principal and interest; a shortfall
 * into the principal the platform bore and the interest written off (docs/decisions/0006-shortfall-income.md).
 */
export function LiquidationReceipt({ record }: { record: LoanLiquidationRecord }) {
  const { t } = useTranslation('loans');
  return (
    <Descriptions size="small" column={1} bordered className="loan-receipt" data-testid="liquidation-receipt">
      <Descriptions.Item label={t('history.kind')}>{t(liquidationKindKey(record.kind))}</Descriptions.Item>
      <Descriptions.Item label={t('receipt.at')}>
        {dayjs(record.createTime).format('YYYY-MM-DD HH:mm')}
      </Descriptions.Item>
      <Descriptions.Item label={t('history.order')}>{record.orderId}</Descriptions.Item>
      <Descriptions.Item label={t('receipt.price')}>
        <span data-testid="receipt-price">{money(record.price, 'USD')}</span>
      </Descriptions.Item>
      <Descriptions.Item label={t('receipt.sources')}>{record.priceSources.join(', ') || '—'}</Descriptions.Item>
      <Descriptions.Item label={t('receipt.collateralSold')}>
        <span data-testid="receipt-collateral-sold">{money(record.collateralSold, 'BTC')}</span>
      </Descriptions.Item>
      <Descriptions.Item label={t('receipt.fee')}>{money(record.fee, record.loanCoin)}</Descriptions.Item>
      <Descriptions.Item label={t('receipt.debtRepaid')}>{money(record.debtRepaid, record.loanCoin)}</Descriptions.Item>
      {record.principalRepaid !== null && (
        <Descriptions.Item label={t('receipt.principalRepaid')}>
          <span data-testid="receipt-principal-repaid">{money(record.principalRepaid, record.loanCoin)}</span>
        </Descriptions.Item>
      )}
      {record.interestRepaid !== null && (
        <Descriptions.Item label={t('receipt.interestRepaid')}>
          {money(record.interestRepaid, record.loanCoin)}
        </Descriptions.Item>
      )}
      <Descriptions.Item label={t('receipt.collateralReturned')}>
        {money(record.collateralReturned, 'BTC')}
      </Descriptions.Item>
      <Descriptions.Item label={t('receipt.ltvBefore')}>{pct(record.ltvBeforePct)}</Descriptions.Item>
      <Descriptions.Item label={t('receipt.ltvAfter')}>
        {record.ltvAfterPct ? pct(record.ltvAfterPct) : '—'}
      </Descriptions.Item>
      {!isZeroAmount(record.shortfall) && (
        <Descriptions.Item label={t('receipt.shortfall')}>{money(record.shortfall, record.loanCoin)}</Descriptions.Item>
      )}
      {record.principalLoss !== null && !isZeroAmount(record.shortfall) && (
        <Descriptions.Item label={t('receipt.shortfallSplit')}>
          {t('receipt.shortfallSplitValue', {
            principal: money(record.principalLoss, record.loanCoin),
            interest: money(writtenOffInterest(record), record.loanCoin),
          })}
        </Descriptions.Item>
      )}
      <Descriptions.Item label={t('history.status')}>
        <LoanStatusTag status={record.statusAfter} />
      </Descriptions.Item>
    </Descriptions>
  );
}

/** "View receipt", opening the receipt in a modal. */
export function ReceiptButton({ record }: { record: LoanLiquidationRecord }) {
  const { t } = useTranslation('loans');
  const [isOpen, setIsOpen] = useState(false);
  return (
    <>
      <Button size="small" onClick={() => setIsOpen(true)} data-testid="receipt-open">
        {t('history.viewReceipt')}
      </Button>
      {isOpen && (
        <AppModal
          open
          title={t('receipt.title')}
          footer={null}
          onCancel={() => setIsOpen(false)}
          data-testid="receipt-modal"
        >
          <LiquidationReceipt record={record} />
        </AppModal>
      )}
    </>
  );
}
