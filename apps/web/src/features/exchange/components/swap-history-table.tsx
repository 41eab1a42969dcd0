import type { SwapRecord } from '@meridian/contracts/exchange';
import { Table, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import type { SwapFilters } from '../api/exchange-keys.ts';
import { useSwapHistory } from '../api/get-swap-history.ts';
import { SwapKindTag, SwapPaid, SwapRate, SwapReceived, SwapTime } from './swap-history-cells.tsx';

export interface SwapHistoryTableProps {
  /** The filters with the page shown. */
  filters: SwapFilters;
  onPage: (pageID: number) => void;
}

/** The swap history on desktop: one page at a time with a pager. */
export function SwapHistoryTable({ filters, onPage }: SwapHistoryTableProps) {
  const { t } = useTranslation('exchange');
  const history = useSwapHistory(filters);
  const columns: TableColumnsType<SwapRecord> = [
    { title: t('history.time'), dataIndex: 'executedAt', render: (value: string) => <SwapTime executedAt={value} /> },
    {
      title: t('history.type'),
      key: 'kind',
      render: (_value: unknown, record: SwapRecord) => <SwapKindTag record={record} />,
    },
    {
      title: t('history.paid'),
      key: 'from',
      render: (_value: unknown, record: SwapRecord) => <SwapPaid record={record} />,
    },
    {
      title: t('history.received'),
      key: 'to',
      render: (_value: unknown, record: SwapRecord) => <SwapReceived record={record} />,
    },
    {
      title: t('history.rate'),
      key: 'rate',
      render: (_value: unknown, record: SwapRecord) => <SwapRate record={record} />,
    },
  ];

  return (
    <Table<SwapRecord>
      rowKey="swapId"
      loading={history.isPending || history.isFetching}
      dataSource={history.data?.list ?? []}
      columns={columns}
      locale={{ emptyText: t('history.empty') }}
      // Like the wallet histories: compact cells sized to their content, scrolling only on narrow screens.
      size="middle"
      tableLayout="auto"
      scroll={{ x: 'max-content' }}
      data-testid="swap-table"
      pagination={{
        current: filters.pageID,
        pageSize: filters.pageSize,
        total: history.data?.totalCount ?? 0,
        onChange: onPage,
        showSizeChanger: false,
      }}
    />
  );
}
