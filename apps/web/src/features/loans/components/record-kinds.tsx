import type { LoanAdjustRecord, LoanLiquidationRecord, LoanOrder, LoanRepayRecord } from '@meridian/contracts/loans';
import type { TFunction } from 'i18next';
import dayjs from 'dayjs';
import type { ReactNode } from 'react';
import type { LoanRecordKind } from '../api/loan-keys.ts';
import { RECORD_FETCHERS } from '../api/record-fetchers.ts';
import type { RecordFetcher } from '../api/record-queries.ts';
import { pct } from '../lib/format.ts';
import { liquidationKindKey, ReceiptButton } from './liquidation-receipt.tsx';
import { LoanStatusTag } from './loan-status-tag.tsx';
import { money } from '../../../lib/money.ts';

/** One field of a history row: its column on desktop, a line of the item on mobile. */
export interface RecordField<Row> {
  key: string;
  title: string;
  render: (row: Row) => ReactNode;
  align?: 'right';
}

/** How one history shows its rows: the call, the row's id, the fields, the mobile item's title and tag. */
export interface RecordKindView<Row> {
  kind: LoanRecordKind;
  fetcher: RecordFetcher<Row>;
  idOf: (row: Row) => string;
  fields: (t: TFunction) => RecordField<Row>[];
  /** The mobile item's title and what goes at its right. */
  titleOf: (row: Row, t: TFunction) => ReactNode;
  extraOf: (row: Row) => ReactNode;
}

const time = (value: string) => dayjs(value).format('YYYY-MM-DD HH:mm');
const ltvPair = (before: string | null, after: string | null) =>
  `${before ? pct(before) : '—'} → ${after ? pct(after) : '—'}`;

/** LoanOrder (route `/my/order/loan/history`): every loan with its status. */
export const ORDER_VIEW: RecordKindView<LoanOrder> = {
  kind: 'order',
  fetcher: RECORD_FETCHERS.order,
  idOf: (row) => row.orderId,
  fields: (t) => [
    { key: 'borrowTime', title: t('history.borrowedAt'), render: (row) => time(row.borrowTime) },
    { key: 'orderId', title: t('history.order'), render: (row) => row.orderId },
    {
      key: 'principal',
      title: t('history.principal'),
      align: 'right',
      render: (row) => <span data-testid="record-principal">{money(row.principal, row.loanCoin)}</span>,
    },
    {
      key: 'collateral',
      title: t('history.collateral'),
      align: 'right',
      render: (row) => money(row.collateralAmount, row.collateralCoin),
    },
    { key: 'term', title: t('history.term'), render: (row) => t('loans.termDays', { count: row.termDays }) },
    {
      key: 'interest',
      title: t('history.interest'),
      align: 'right',
      render: (row) => money(row.interest, row.loanCoin),
    },
    { key: 'repaymentDate', title: t('history.dueDate'), render: (row) => row.repaymentDate },
    { key: 'closeTime', title: t('history.repaidAt'), render: (row) => (row.closeTime ? time(row.closeTime) : '—') },
    { key: 'status', title: t('history.status'), render: (row) => <LoanStatusTag status={row.status} /> },
  ],
  titleOf: (row) => <span data-testid="record-principal">{money(row.principal, row.loanCoin)}</span>,
  extraOf: (row) => <LoanStatusTag status={row.status} />,
};

/** LoanRepayRecord (route `/my/order/loan/repay`): each repayment with its split. */
export const REPAY_VIEW: RecordKindView<LoanRepayRecord> = {
  kind: 'repay',
  fetcher: RECORD_FETCHERS.repay,
  idOf: (row) => row.id,
  fields: (t) => [
    { key: 'createTime', title: t('history.time'), render: (row) => time(row.createTime) },
    { key: 'orderId', title: t('history.order'), render: (row) => row.orderId },
    { key: 'source', title: t('history.source'), render: (row) => t(`source.${row.repayType}`) },
    {
      key: 'amount',
      title: t('history.amount'),
      align: 'right',
      render: (row) => <span data-testid="record-amount">{money(row.amount, row.loanCoin)}</span>,
    },
    {
      key: 'interest',
      title: t('history.interestPaid'),
      align: 'right',
      render: (row) => money(row.interest, row.loanCoin),
    },
    {
      key: 'principal',
      title: t('history.principalPaid'),
      align: 'right',
      render: (row) => money(row.principal, row.loanCoin),
    },
    { key: 'fee', title: t('history.charge'), align: 'right', render: (row) => money(row.fee, row.loanCoin) },
    {
      key: 'released',
      title: t('history.released'),
      align: 'right',
      render: (row) => money(row.collateralReleased, 'BTC'),
    },
    { key: 'status', title: t('history.status'), render: (row) => <LoanStatusTag status={row.statusAfter} /> },
  ],
  titleOf: (row, t) => (
    <span>
      {`${t(`source.${row.repayType}`)} · `}
      <span data-testid="record-amount">{money(row.amount, row.loanCoin)}</span>
    </span>
  ),
  extraOf: (row) => <LoanStatusTag status={row.statusAfter} />,
};

/** LoanAdjustRecord (route `/my/order/loan/adjust`): each collateral change with the LTV before and after. */
export const ADJUST_VIEW: RecordKindView<LoanAdjustRecord> = {
  kind: 'adjust',
  fetcher: RECORD_FETCHERS.adjust,
  idOf: (row) => row.id,
  fields: (t) => [
    { key: 'createTime', title: t('history.time'), render: (row) => time(row.createTime) },
    { key: 'orderId', title: t('history.order'), render: (row) => row.orderId },
    { key: 'direction', title: t('history.direction'), render: (row) => t(`direction.${row.direction}`) },
    {
      key: 'amount',
      title: t('history.amount'),
      align: 'right',
      render: (row) => <span data-testid="record-amount">{money(row.amount, row.collateralCoin)}</span>,
    },
    {
      key: 'after',
      title: t('adjust.collateralAfter'),
      align: 'right',
      render: (row) => money(row.collateralAfter, row.collateralCoin),
    },
    { key: 'ltv', title: t('ltv.label'), render: (row) => ltvPair(row.ltvBeforePct, row.ltvAfterPct) },
    {
      key: 'price',
      title: t('calc.btcPrice'),
      align: 'right',
      render: (row) => (row.price ? money(row.price, 'USD') : '—'),
    },
  ],
  titleOf: (row, t) => (
    <span>
      {`${t(`direction.${row.direction}`)} · `}
      <span data-testid="record-amount">{money(row.amount, row.collateralCoin)}</span>
    </span>
  ),
  extraOf: () => null,
};

/** LoanLiquidationRecord (route `/my/order/loan/liquidation`): each liquidation with its receipt. */
export const LIQUIDATION_VIEW: RecordKindView<LoanLiquidationRecord> = {
  kind: 'liquidation',
  fetcher: RECORD_FETCHERS.liquidation,
  idOf: (row) => row.id,
  fields: (t) => [
    { key: 'createTime', title: t('history.time'), render: (row) => time(row.createTime) },
    { key: 'orderId', title: t('history.order'), render: (row) => row.orderId },
    { key: 'kind', title: t('history.kind'), render: (row) => t(liquidationKindKey(row.kind)) },
    { key: 'price', title: t('receipt.price'), align: 'right', render: (row) => money(row.price, 'USD') },
    {
      key: 'sold',
      title: t('receipt.collateralSold'),
      align: 'right',
      render: (row) => <span data-testid="record-amount">{money(row.collateralSold, 'BTC')}</span>,
    },
    {
      key: 'debtRepaid',
      title: t('receipt.debtRepaid'),
      align: 'right',
      render: (row) => money(row.debtRepaid, row.loanCoin),
    },
    { key: 'ltv', title: t('ltv.label'), render: (row) => ltvPair(row.ltvBeforePct, row.ltvAfterPct) },
    { key: 'receipt', title: t('history.receipt'), render: (row) => <ReceiptButton record={row} /> },
  ],
  titleOf: (row, t) => (
    <span>
      {`${t(liquidationKindKey(row.kind))} · `}
      <span data-testid="record-amount">{money(row.collateralSold, 'BTC')}</span>
    </span>
  ),
  extraOf: (row) => <LoanStatusTag status={row.statusAfter} />,
};
