import { displayAmount, displayRate } from '@meridian/contracts/money';
import type { SwapRecord } from '@meridian/contracts/exchange';
import { Button, DatePicker, Form, List, Select, Table, Tag } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HistoryFilters } from '../../../components/history-filters.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { useAppendedPages } from '../../../hooks/use-appended-pages.ts';
import { useIsMobile } from '../../../lib/viewport.ts';
import { RequireUser } from '../../../components/require-user.tsx';
import { type SwapFilters, useSwapHistory, useWalletCoins } from '../api/exchange-api.ts';
import { isExchangeCoin } from '../lib/swap-form.ts';
import './swap-history.css';

/** Page size of the history (spec §9). */
const PAGE_SIZE = 10;
const DATE_TIME_FORMAT = 'YYYY-MM-DD HH:mm';

interface FilterValues {
  coin?: string;
  createTime?: [Dayjs, Dayjs];
}

/** The form's values as the list query: a coin (either side of the swap) and whole days in local time. */
export function toSwapFilters(values: FilterValues, pageID: number): SwapFilters {
  return {
    pageID,
    pageSize: PAGE_SIZE,
    coin: values.coin && isExchangeCoin(values.coin) ? values.coin : undefined,
    createTime: values.createTime ? [values.createTime[0].startOf('day').toISOString(), values.createTime[1].endOf('day').toISOString()] : undefined,
  };
}

/**
 * /my/order/swap (spec §2 SwapHistory): the user's swaps and flash exchanges, newest first, with
 * coin (all plus each wallet coin) and date filters — inline on desktop, in a modal with reset and
 * submit on mobile; pages of 10, appended in list mode on mobile (spec §9).
 */
export function SwapHistoryPage() {
  const { t } = useTranslation('exchange');
  const isMobile = useIsMobile();
  const coins = useWalletCoins();
  const [values, setValues] = useState<FilterValues>({});
  const [pageID, setPageID] = useState(1);
  const [form] = Form.useForm<FilterValues>();
  const history = useSwapHistory(toSwapFilters(values, pageID));

  const appended = useAppendedPages(history.data, (row) => row.swapId, isMobile);

  const apply = (next: FilterValues) => {
    setValues(next);
    setPageID(1);
  };

  const coinOptions = [
    { value: '', label: t('history.all') },
    ...(coins.data ?? []).filter((coin) => isExchangeCoin(coin.coinCode)).map((coin) => ({ value: coin.coinCode, label: coin.coinCode })),
  ];
  const filterFields = (
    <>
      <Form.Item name="coin" label={t('history.coin')}>
        <Select style={{ minWidth: 120 }} options={coinOptions} placeholder={t('history.all')} data-testid="swap-filter-coin" />
      </Form.Item>
      <Form.Item name="createTime" label={t('history.time')}>
        <DatePicker.RangePicker data-testid="swap-filter-time" />
      </Form.Item>
    </>
  );

  const rateText = (record: SwapRecord) => t('history.rateValue', { from: record.from, to: record.to, rate: displayRate(record.rate) });
  // A date and time never break inside (390 px split "2026-11-24" from "17:52").
  const timeText = (value: string) => (
    <time className="swap-history__time" dateTime={value} data-testid="swap-time">
      {dayjs(value).format(DATE_TIME_FORMAT)}
    </time>
  );
  const kindTag = (record: SwapRecord) => <Tag color={record.kind === 'FLASH' ? 'purple' : 'blue'}>{t(`history.${record.kind}`)}</Tag>;
  const columns = [
    { title: t('history.time'), dataIndex: 'executedAt', render: (value: string) => timeText(value) },
    { title: t('history.type'), key: 'kind', render: (_value: unknown, record: SwapRecord) => kindTag(record) },
    {
      title: t('history.paid'),
      key: 'from',
      render: (_value: unknown, record: SwapRecord) => <span data-testid="swap-paid">{`${displayAmount(record.fromAmount, record.from)} ${record.from}`}</span>,
    },
    {
      title: t('history.received'),
      key: 'to',
      render: (_value: unknown, record: SwapRecord) => <span data-testid="swap-received">{`${displayAmount(record.toAmount, record.to)} ${record.to}`}</span>,
    },
    { title: t('history.rate'), key: 'rate', render: (_value: unknown, record: SwapRecord) => <span className="swap-history__rate">{rateText(record)}</span> },
  ];

  return (
    <RequireUser>
      <PageFrame>
        <div className="content-card" data-testid="swap-history">
          <HistoryFilters
            form={form}
            fields={filterFields}
            onApply={apply}
            isMobile={isMobile}
            labels={{ filter: t('history.filter'), reset: t('history.reset'), submit: t('history.submit') }}
            testIdPrefix="swap-filter"
          />
          {isMobile ? (
            <>
              <List
                loading={history.isFetching && appended.length === 0}
                dataSource={appended}
                locale={{ emptyText: t('history.empty') }}
                data-testid="swap-list"
                renderItem={(record) => (
                  <List.Item extra={kindTag(record)}>
                    <List.Item.Meta
                      title={
                        <span>
                          <span data-testid="swap-paid">{`${displayAmount(record.fromAmount, record.from)} ${record.from}`}</span>
                          {' → '}
                          <span data-testid="swap-received">{`${displayAmount(record.toAmount, record.to)} ${record.to}`}</span>
                        </span>
                      }
                      description={
                        <span className="swap-history__meta">
                          <span className="swap-history__rate">{rateText(record)}</span>
                          {timeText(record.executedAt)}
                        </span>
                      }
                    />
                  </List.Item>
                )}
              />
              {history.data && pageID < history.data.totalPage && (
                <Button block onClick={() => setPageID((page) => page + 1)} loading={history.isFetching} data-testid="swap-more">
                  {t('history.more')}
                </Button>
              )}
            </>
          ) : (
            <Table<SwapRecord>
              rowKey="swapId"
              loading={history.isFetching}
              dataSource={history.data?.list ?? []}
              columns={columns}
              locale={{ emptyText: t('history.empty') }}
              // Like the wallet histories: compact cells sized to their content, scrolling only on narrow screens.
              size="middle"
              tableLayout="auto"
              scroll={{ x: 'max-content' }}
              data-testid="swap-table"
              pagination={{ current: pageID, pageSize: PAGE_SIZE, total: history.data?.totalCount ?? 0, onChange: setPageID, showSizeChanger: false }}
            />
          )}
        </div>
      </PageFrame>
    </RequireUser>
  );
}
