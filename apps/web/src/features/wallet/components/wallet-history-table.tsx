import type { WalletRecord } from '@meridian/contracts/wallet';
import { Table, type TableColumnsType } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { useWalletRecords } from '../api/get-wallet-records.ts';
import type { RecordFilters } from '../api/wallet-keys.ts';
import { AddressText } from './address-text.tsx';
import { RecordCancelButton } from './record-cancel-button.tsx';
import { StatusTag } from './status-tag.tsx';
import { WithdrawalTxLink } from './withdrawal-tx-link.tsx';
import { money } from '../../../lib/money.ts';

export interface WalletHistoryTableProps {
  /** The filters with the page shown. */
  filters: RecordFilters;
  onPage: (pageID: number) => void;
}

/** The deposit or withdrawal history on desktop: one page at a time with a pager. */
export function WalletHistoryTable({ filters, onPage }: WalletHistoryTableProps) {
  const { t } = useTranslation('wallet');
  const records = useWalletRecords(filters);
  const { action } = filters;

  // Sized to their content (`max-content`, cells never wrap): the widest column, the address, is
  // shortened in the middle, so the table fits the card at 1280 px; narrower screens scroll it, with
  // the cancel button pinned to the right edge.
  const columns: TableColumnsType<WalletRecord> = [
    {
      title: t('history.time'),
      dataIndex: 'createTime',
      render: (value: string) => dayjs(value).format('YYYY-MM-DD HH:mm'),
    },
    { title: t('history.coin'), dataIndex: 'coinCode' },
    { title: t('history.network'), dataIndex: 'network' },
    {
      title: t('history.amount'),
      dataIndex: 'amount',
      align: 'right',
      render: (value: string, row: WalletRecord) => (
        <span data-testid="record-amount">{money(value, row.coinCode, { unit: 'none' })}</span>
      ),
    },
    ...(action === 'withdraw'
      ? [
          {
            title: t('history.fee'),
            dataIndex: 'fee',
            align: 'right' as const,
            render: (value: string, row: WalletRecord) => money(value, row.coinCode, { unit: 'none' }),
          },
        ]
      : []),
    { title: t('history.type'), dataIndex: 'type', render: (value: string) => t(`history.${value}`) },
    { title: t('history.address'), dataIndex: 'address', render: (value: string) => <AddressText address={value} /> },
    {
      title: t('history.status'),
      dataIndex: 'status',
      render: (value: number, row: WalletRecord) => (
        <StatusTag
          status={value}
          action={action}
          confirmations={row.confirmations}
          confirmationsRequired={row.confirmationsRequired}
        />
      ),
    },
    ...(action === 'withdraw'
      ? [
          {
            title: t('history.txHash'),
            key: 'txHash',
            render: (_value: unknown, row: WalletRecord) => <WithdrawalTxLink record={row} />,
          },
          {
            title: '',
            key: 'cancel',
            fixed: 'right' as const,
            render: (_value: unknown, row: WalletRecord) =>
              row.status === 0 ? <RecordCancelButton recordId={row.id} /> : null,
          },
        ]
      : []),
  ];

  return (
    <Table<WalletRecord>
      rowKey="id"
      loading={records.isPending || records.isFetching}
      dataSource={records.data?.list ?? []}
      columns={columns}
      size="middle"
      tableLayout="auto"
      scroll={{ x: 'max-content' }}
      data-testid="record-table"
      pagination={{
        current: filters.pageID,
        pageSize: filters.pageSize,
        total: records.data?.totalCount ?? 0,
        onChange: onPage,
        showSizeChanger: false,
      }}
    />
  );
}
