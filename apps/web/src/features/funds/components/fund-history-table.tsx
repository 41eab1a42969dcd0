import type { FundOrder } from '@meridian/contracts/funds';
import { Table, type TableColumnsType, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useFundOrders } from '../api/get-fund-orders.ts';
import type { FundOrderFilters } from '../api/fund-keys.ts';
import { FundStatusTag, useChannelLabel } from './fund-order-cells.tsx';
import { money } from '../../../lib/money.ts';

/** The fund history on desktop: one page at a time with a pager. */
export function FundHistoryTable({ filters, onPage }: { filters: FundOrderFilters; onPage: (pageID: number) => void }) {
  const { t } = useTranslation('funds');
  const orders = useFundOrders(filters);
  const channelOf = useChannelLabel();
  const rows = orders.data?.list ?? [];
  // Columns that only some orders fill are shown when the page has such an order, so the table fits
  // the card at 1280 px without scrolling in the common case.
  const hasInterest = rows.some((row) => row.interest !== null);
  const hasMaturity = rows.some((row) => row.maturityDate !== null);
  const hasWire = rows.some((row) => row.wire !== null);
  const maybeColumns: (TableColumnsType<FundOrder>[number] | false)[] = [
    {
      title: t('history.time'),
      dataIndex: 'createTime',
      render: (value: string) => dayjs(value).format('YYYY-MM-DD HH:mm'),
    },
    { title: t('history.product'), dataIndex: 'productName' },
    { title: t('history.action'), dataIndex: 'action', render: (value: string) => t(`action.${value}`) },
    { title: t('history.channel'), key: 'channel', render: (_value, row) => channelOf(row) },
    {
      title: t('history.amount'),
      dataIndex: 'amount',
      align: 'right',
      render: (value: string) => <span data-testid="fund-order-amount">{money(value, 'USD', { unit: 'none' })}</span>,
    },
    hasInterest && {
      title: t('history.interest'),
      dataIndex: 'interest',
      align: 'right',
      render: (value: string | null) => (value === null ? '—' : money(value, 'USD', { unit: 'none' })),
    },
    hasMaturity && {
      title: t('history.maturity'),
      dataIndex: 'maturityDate',
      render: (value: string | null) => value ?? '—',
    },
    hasWire && {
      title: t('history.reference'),
      key: 'reference',
      render: (_value, row) =>
        row.wire ? (
          <Typography.Text copyable={{ text: row.wire.reference }}>{row.wire.reference}</Typography.Text>
        ) : (
          '—'
        ),
    },
    {
      title: t('history.status'),
      dataIndex: 'status',
      render: (value: FundOrder['status']) => <FundStatusTag status={value} />,
    },
  ];
  const columns: TableColumnsType<FundOrder> = maybeColumns.filter((column) => column !== false);
  return (
    <Table<FundOrder>
      rowKey="id"
      loading={orders.isPending || orders.isFetching}
      dataSource={rows}
      columns={columns}
      size="middle"
      tableLayout="auto"
      scroll={{ x: 'max-content' }}
      data-testid="fund-order-table"
      pagination={{
        current: filters.pageID,
        pageSize: filters.pageSize,
        total: orders.data?.totalCount ?? 0,
        onChange: onPage,
        showSizeChanger: false,
      }}
    />
  );
}
