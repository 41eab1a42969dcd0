import { displayAmount } from '@meridian/contracts/money';
import type { WalletRecord } from '@meridian/contracts/wallet';
import { Button, DatePicker, Form, List, Select, Table, type TableColumnsType } from 'antd';
import type { Dayjs } from 'dayjs';
import dayjs from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HistoryFilters } from '../../../components/history-filters.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { useAppendedPages } from '../../../hooks/use-appended-pages.ts';
import { useRouteMeta } from '../../../hooks/use-route-meta.ts';
import { isSuccess } from '../../../lib/api-client.ts';
import { useIsMobile } from '../../../lib/viewport.ts';
import { RequireUser } from '../../../components/require-user.tsx';
import { type RecordFilters, useCoins, useInvalidateWallet, useRecords, walletApi } from '../api/wallet-api.ts';
import { AddressText } from '../components/address-text.tsx';
import { StatusTag } from '../components/status-tag.tsx';

/** Page size of the history (spec §9). */
const PAGE_SIZE = 10;

interface FilterValues {
  coin?: string;
  createTime?: [Dayjs, Dayjs];
  status?: number;
  type?: 'INTERNAL' | 'OUTER';
}

function toFilters(action: RecordFilters['action'], values: FilterValues, pageID: number): RecordFilters {
  return {
    action,
    pageID,
    pageSize: PAGE_SIZE,
    coin: values.coin || undefined,
    status: values.status,
    type: values.type,
    createTime: values.createTime ? [values.createTime[0].startOf('day').toISOString(), values.createTime[1].endOf('day').toISOString()] : undefined,
  };
}

/**
 * /my/order/wallet/deposit and /withdraw (spec §2): the history with filters — inline on desktop, in
 * a modal with reset and submit on mobile; status only for withdrawals; coin all plus each wallet
 * coin; pages of 10, appended in list mode on mobile; status tags in the colours of spec §4.
 */
export function WalletHistoryPage() {
  const { t } = useTranslation('wallet');
  const { current } = useRouteMeta();
  const action: RecordFilters['action'] = current === 'WithdrawHistory' ? 'withdraw' : 'deposit';
  const isMobile = useIsMobile();
  const coins = useCoins();
  const [values, setValues] = useState<FilterValues>({});
  const [pageID, setPageID] = useState(1);
  const [form] = Form.useForm<FilterValues>();
  const records = useRecords(toFilters(action, values, pageID));
  const invalidate = useInvalidateWallet();

  const appended = useAppendedPages(records.data, (row) => row.id, isMobile);

  useEffect(() => {
    setValues({});
    setPageID(1);
    form.resetFields();
  }, [action, form]);

  // The list shown on mobile is replaced when page 1 of the new filters arrives (from the cache or the server).
  const apply = (next: FilterValues) => {
    setValues(next);
    setPageID(1);
  };
  const cancel = async (id: string) => {
    const response = await walletApi.cancelWithdrawal(id);
    if (isSuccess(response)) invalidate();
  };

  const filterFields = (
    <>
      <Form.Item name="coin" label={t('history.coin')}>
        <Select style={{ minWidth: 120 }} data-testid="filter-coin" options={[{ value: '', label: t('history.all') }, ...(coins.data ?? []).map((c) => ({ value: c.coinCode, label: c.coinCode }))]} placeholder={t('history.all')} />
      </Form.Item>
      <Form.Item name="createTime" label={t('history.time')}>
        <DatePicker.RangePicker />
      </Form.Item>
      {action === 'withdraw' && (
        <Form.Item name="status" label={t('history.status')}>
          <Select allowClear style={{ minWidth: 120 }} data-testid="filter-status" options={[0, 1, 2, 3, 4].map((s) => ({ value: s, label: t(`status.${s}`) }))} placeholder={t('history.all')} />
        </Form.Item>
      )}
      <Form.Item name="type" label={t('history.type')}>
        <Select allowClear style={{ minWidth: 120 }} data-testid="filter-type" options={[{ value: 'OUTER', label: t('history.OUTER') }, { value: 'INTERNAL', label: t('history.INTERNAL') }]} placeholder={t('history.all')} />
      </Form.Item>
    </>
  );

  // Sized to their content (`max-content`, cells never wrap): the widest column, the address, is
  // shortened in the middle, so the table fits the card at 1280 px; narrower screens scroll it, with
  // the cancel button pinned to the right edge.
  const columns: TableColumnsType<WalletRecord> = [
    { title: t('history.time'), dataIndex: 'createTime', render: (value: string) => dayjs(value).format('YYYY-MM-DD HH:mm') },
    { title: t('history.coin'), dataIndex: 'coinCode' },
    { title: t('history.network'), dataIndex: 'network' },
    { title: t('history.amount'), dataIndex: 'amount', align: 'right', render: (value: string, row: WalletRecord) => <span data-testid="record-amount">{displayAmount(value, row.coinCode)}</span> },
    ...(action === 'withdraw' ? [{ title: t('history.fee'), dataIndex: 'fee', align: 'right' as const, render: (value: string, row: WalletRecord) => displayAmount(value, row.coinCode) }] : []),
    { title: t('history.type'), dataIndex: 'type', render: (value: string) => t(`history.${value}`) },
    { title: t('history.address'), dataIndex: 'address', render: (value: string) => <AddressText address={value} /> },
    { title: t('history.status'), dataIndex: 'status', render: (value: number) => <StatusTag status={value} action={action} /> },
    ...(action === 'withdraw'
      ? [
          {
            title: '',
            key: 'cancel',
            fixed: 'right' as const,
            render: (_value: unknown, row: WalletRecord) =>
              row.status === 0 ? (
                <Button size="small" onClick={() => void cancel(row.id)} data-testid="record-cancel">
                  {t('history.cancel')}
                </Button>
              ) : null,
          },
        ]
      : []),
  ];

  return (
    <RequireUser>
      <PageFrame>
        <div className="content-card" data-testid={`${action}-history`}>
          <HistoryFilters
            form={form}
            fields={filterFields}
            onApply={apply}
            isMobile={isMobile}
            labels={{ filter: t('history.filter'), reset: t('history.reset'), submit: t('history.submit') }}
            testIdPrefix="filter"
          />
          {isMobile ? (
            <>
              <List
                loading={records.isFetching && appended.length === 0}
                dataSource={appended}
                data-testid="record-list"
                renderItem={(row) => (
                  <List.Item
                    extra={
                      // The status and, for a waiting withdrawal, its Cancel, stacked with room between them.
                      <div className="record-item-actions">
                        <StatusTag status={row.status} action={action} />
                        {action === 'withdraw' && row.status === 0 && (
                          <Button size="small" onClick={() => void cancel(row.id)} data-testid="record-cancel">
                            {t('history.cancel')}
                          </Button>
                        )}
                      </div>
                    }
                  >
                    <List.Item.Meta title={<span data-testid="record-amount">{`${displayAmount(row.amount, row.coinCode)} ${row.coinCode}`}</span>} description={`${row.network} · ${t(`history.${row.type}`)} · ${dayjs(row.createTime).format('YYYY-MM-DD HH:mm')}`} />
                  </List.Item>
                )}
              />
              {records.data && pageID < records.data.totalPage && (
                <Button block onClick={() => setPageID((p) => p + 1)} loading={records.isFetching} data-testid="record-more">
                  {t('history.more')}
                </Button>
              )}
            </>
          ) : (
            <Table<WalletRecord>
              rowKey="id"
              loading={records.isFetching}
              dataSource={records.data?.list ?? []}
              columns={columns}
              size="middle"
              tableLayout="auto"
              scroll={{ x: 'max-content' }}
              data-testid="record-table"
              pagination={{ current: pageID, pageSize: PAGE_SIZE, total: records.data?.totalCount ?? 0, onChange: setPageID, showSizeChanger: false }}
            />
          )}
        </div>
      </PageFrame>
    </RequireUser>
  );
}
