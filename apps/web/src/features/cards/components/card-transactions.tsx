import type { Card, CardTransaction, CardTransactionStatus } from '@meridian/contracts/cards';
import { Empty, Flex, List, Pagination, Table, type TableColumnsType, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useIsMobile } from '../../../lib/viewport.ts';
import { isolateText } from '../../../lib/bidi.ts';
import { useCardTransactions } from '../api/get-card-transactions.ts';
import { money, refundTiming } from '../lib/card-format.ts';

/** How often the open card's transactions are refetched: a merchant's payment shows up by itself. */
const TRANSACTIONS_POLL_MS = 5_000;

const STATUS_COLOR: Record<CardTransactionStatus, string> = {
  PENDING_CONFIRMATION: 'warning',
  AUTHORIZED: 'processing',
  CLEARED: 'success',
  REVERSED: 'default',
  DECLINED: 'error',
  COMPLETED: 'success',
};

function useDescribe() {
  const { t } = useTranslation('cards');
  return (row: CardTransaction) => {
    if (row.kind === 'TOPUP')
      return t('tx.topUp', {
        source: row.sourceAmount && row.sourceCoin ? money(row.sourceAmount, row.sourceCoin) : '',
      });
    if (row.kind === 'FEE') return t('tx.fee');
    const merchant = row.merchantName ?? t('tx.unknownMerchant');
    return row.kind === 'REFUND' ? t('tx.refund', { merchant: isolateText(merchant) }) : isolateText(merchant);
  };
}

/**
 * The amount in the card's currency, signed: money out of the card is negative, money in positive.
 * A declined or reversed payment moved no money, so it has no sign and is struck through.
 */
function SignedAmount({ row, strong = false }: { row: CardTransaction; strong?: boolean }) {
  const amount = money(row.amount, row.currency);
  if (row.status === 'DECLINED' || row.status === 'REVERSED')
    return (
      <Typography.Text type="secondary" delete data-testid="card-tx-amount">
        {amount}
      </Typography.Text>
    );
  const isOut = row.kind === 'PURCHASE' || row.kind === 'FEE';
  return (
    <Typography.Text strong={strong} data-testid="card-tx-amount">
      {`${isOut ? '−' : '+'}${amount}`}
    </Typography.Text>
  );
}

/** The status tag, and for a declined payment its reason. */
function StatusCell({ row }: { row: CardTransaction }) {
  const { t } = useTranslation('cards');
  return (
    <Flex vertical gap={2} align="flex-start">
      <Tag color={STATUS_COLOR[row.status]} data-testid="card-tx-status">
        {t(`txStatus.${row.status}`)}
      </Tag>
      {row.declineReason && (
        <Typography.Text type="danger" data-testid="card-tx-reason">
          {t(`decline.${row.declineReason}`)}
        </Typography.Text>
      )}
    </Flex>
  );
}

/** The merchant refund timing on a paid purchase: credited after 72 hours, or 31 days. */
function RefundNote({ row }: { row: CardTransaction }) {
  const { t } = useTranslation('cards');
  const timing = refundTiming(row);
  if (!timing) return null;
  return (
    <Typography.Text type="secondary" className="card-tx__refund" data-testid="card-tx-refund">
      {t('tx.refundTiming', { hours: timing.afterHours, days: timing.fallbackDays })}
    </Typography.Text>
  );
}

/**
 * One card's transactions: merchant, amount in the card's currency and in the merchant's
 * original currency, status with the decline reason, and the refund timing; a table on desktop, a
 * list on phones; pages of 10, refetched every few seconds while open.
 */
export function CardTransactions({
  card,
  pageID,
  onPage,
}: {
  card: Card;
  pageID: number;
  onPage: (pageID: number) => void;
}) {
  const { t } = useTranslation('cards');
  const isMobile = useIsMobile();
  const describe = useDescribe();
  const transactions = useCardTransactions(card.id, pageID, TRANSACTIONS_POLL_MS);
  const rows = transactions.data?.list ?? [];
  const total = transactions.data?.totalCount ?? 0;
  const empty = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('tx.empty')} />;
  const original = (row: CardTransaction) =>
    row.originalCurrency === row.currency && row.originalAmount === row.amount
      ? null
      : money(row.originalAmount, row.originalCurrency);

  if (isMobile) {
    return (
      <Flex vertical gap={12}>
        <List<CardTransaction>
          dataSource={rows}
          loading={transactions.isPending}
          locale={{ emptyText: empty }}
          data-testid="card-transactions"
          renderItem={(row) => (
            <List.Item key={row.id} className="card-tx-row" data-testid="card-tx-row">
              <Flex justify="space-between" gap={12}>
                <Flex vertical gap={2}>
                  <strong>{describe(row)}</strong>
                  <Typography.Text type="secondary">{dayjs(row.createdAt).format('YYYY-MM-DD HH:mm')}</Typography.Text>
                </Flex>
                <Flex vertical align="flex-end" gap={2}>
                  <SignedAmount row={row} strong />
                  {original(row) && <Typography.Text type="secondary">{original(row)}</Typography.Text>}
                </Flex>
              </Flex>
              <Flex justify="space-between" gap={8} style={{ marginTop: 6 }}>
                <StatusCell row={row} />
              </Flex>
              <RefundNote row={row} />
            </List.Item>
          )}
        />
        {total > 10 && (
          <Pagination simple current={pageID} total={total} pageSize={10} onChange={onPage} align="center" />
        )}
      </Flex>
    );
  }

  const columns: TableColumnsType<CardTransaction> = [
    { title: t('tx.time'), dataIndex: 'createdAt', render: (value: string) => dayjs(value).format('YYYY-MM-DD HH:mm') },
    {
      title: t('tx.merchant'),
      key: 'merchant',
      render: (_value, row) => (
        <Flex vertical gap={2}>
          <span>{describe(row)}</span>
          {row.mcc && <Typography.Text type="secondary">{`MCC ${row.mcc}`}</Typography.Text>}
        </Flex>
      ),
    },
    {
      title: t('tx.amount'),
      key: 'amount',
      align: 'right',
      render: (_value, row) => <SignedAmount row={row} />,
    },
    { title: t('tx.original'), key: 'original', align: 'right', render: (_value, row) => original(row) ?? '—' },
    { title: t('tx.status'), key: 'status', render: (_value, row) => <StatusCell row={row} /> },
    { title: t('tx.refundColumn'), key: 'refund', width: 220, render: (_value, row) => <RefundNote row={row} /> },
  ];
  return (
    <Table<CardTransaction>
      rowKey="id"
      size="middle"
      loading={transactions.isPending}
      dataSource={rows}
      columns={columns}
      tableLayout="auto"
      locale={{ emptyText: empty }}
      data-testid="card-transactions"
      onRow={() => ({ 'data-testid': 'card-tx-row' }) as never}
      pagination={{
        current: pageID,
        pageSize: 10,
        total,
        onChange: onPage,
        showSizeChanger: false,
        hideOnSinglePage: true,
      }}
    />
  );
}
