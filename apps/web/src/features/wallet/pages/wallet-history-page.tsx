import type { AssetCode } from '@meridian/contracts/money';
import { DatePicker, Form, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HistoryFilters } from '../../../components/history-filters.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { RequireUser } from '../../../components/require-user.tsx';
import { useRouteMeta } from '../../../hooks/use-route-meta.ts';
import { FIRST_PAGE_ID } from '../../../lib/paging.ts';
import { useIsMobile } from '../../../lib/viewport.ts';
import { useWalletCoins } from '../../../lib/get-wallet-coins.ts';
import type { RecordHistoryFilters } from '../api/wallet-keys.ts';
import { WalletHistoryList } from '../components/wallet-history-list.tsx';
import { WalletHistoryTable } from '../components/wallet-history-table.tsx';

/** Page size of the history. */
const PAGE_SIZE = 10;
/** Withdrawal statuses (0 waiting to 4 cancel) offered by the status filter. */
const WITHDRAW_STATUSES = [0, 1, 2, 3, 4] as const;

interface FilterValues {
  /** A wallet coin (the select offers the coin list's codes), or empty for all. */
  coin?: AssetCode | '';
  createTime?: [Dayjs, Dayjs];
  status?: number;
  type?: 'INTERNAL' | 'OUTER';
}

/** The form's values as the list's filters: whole days in local time, "all" (empty) as no coin. */
function toFilters(action: RecordHistoryFilters['action'], values: FilterValues): RecordHistoryFilters {
  return {
    action,
    pageSize: PAGE_SIZE,
    coin: values.coin || undefined,
    status: values.status,
    type: values.type,
    createTime: values.createTime
      ? [values.createTime[0].startOf('day').toISOString(), values.createTime[1].endOf('day').toISOString()]
      : undefined,
  };
}

/**
 * /my/order/wallet/deposit and /withdraw: the history with filters — inline on desktop, in
 * a modal with reset and submit on mobile; status only for withdrawals; coin all plus each wallet
 * coin; pages of 10, appended in list mode on mobile; status tags in the withdrawal status colours.
 */
export function WalletHistoryPage() {
  const { t } = useTranslation('wallet');
  const { current } = useRouteMeta();
  const action: RecordHistoryFilters['action'] = current === 'WithdrawHistory' ? 'withdraw' : 'deposit';
  const isMobile = useIsMobile();
  const coins = useWalletCoins();
  const [values, setValues] = useState<FilterValues>({});
  const [pageID, setPageID] = useState(FIRST_PAGE_ID);
  const [form] = Form.useForm<FilterValues>();

  useEffect(() => {
    setValues({});
    setPageID(FIRST_PAGE_ID);
    form.resetFields();
  }, [action, form]);

  // The list shown on mobile is replaced when page 1 of the new filters arrives (from the cache or the server).
  const apply = (next: FilterValues) => {
    setValues(next);
    setPageID(FIRST_PAGE_ID);
  };

  const filterFields = (
    <>
      <Form.Item name="coin" label={t('history.coin')}>
        <Select
          style={{ minWidth: 120 }}
          data-testid="filter-coin"
          options={[
            { value: '', label: t('history.all') },
            ...(coins.data ?? []).map((c) => ({ value: c.coinCode, label: c.coinCode })),
          ]}
          placeholder={t('history.all')}
        />
      </Form.Item>
      <Form.Item name="createTime" label={t('history.time')}>
        <DatePicker.RangePicker />
      </Form.Item>
      {action === 'withdraw' && (
        <Form.Item name="status" label={t('history.status')}>
          <Select
            allowClear
            style={{ minWidth: 120 }}
            data-testid="filter-status"
            options={WITHDRAW_STATUSES.map((s) => ({ value: s, label: t(`status.${s}`) }))}
            placeholder={t('history.all')}
          />
        </Form.Item>
      )}
      <Form.Item name="type" label={t('history.type')}>
        <Select
          allowClear
          style={{ minWidth: 120 }}
          data-testid="filter-type"
          options={[
            { value: 'OUTER', label: t('history.OUTER') },
            { value: 'INTERNAL', label: t('history.INTERNAL') },
          ]}
          placeholder={t('history.all')}
        />
      </Form.Item>
    </>
  );

  const filters = toFilters(action, values);
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
            <WalletHistoryList filters={filters} />
          ) : (
            <WalletHistoryTable filters={{ ...filters, pageID }} onPage={setPageID} />
          )}
        </div>
      </PageFrame>
    </RequireUser>
  );
}
