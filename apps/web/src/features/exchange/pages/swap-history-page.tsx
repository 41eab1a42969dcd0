import { DatePicker, Form, Select } from 'antd';
import type { Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HistoryFilters } from '../../../components/history-filters.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { RequireUser } from '../../../components/require-user.tsx';
import { FIRST_PAGE_ID } from '../../../lib/paging.ts';
import { useIsMobile } from '../../../lib/viewport.ts';
import type { SwapFilters, SwapHistoryFilters } from '../api/exchange-keys.ts';
import { useWalletCoins } from '../../../lib/get-wallet-coins.ts';
import { SwapHistoryList } from '../components/swap-history-list.tsx';
import { SwapHistoryTable } from '../components/swap-history-table.tsx';
import { isExchangeCoin } from '../lib/swap-form.ts';
import './swap-history.css';

/** Page size of the history. */
const PAGE_SIZE = 10;

interface FilterValues {
  coin?: string;
  createTime?: [Dayjs, Dayjs];
}

/** The form's values as the list's filters: a coin (either side of the swap) and whole days in local time. */
function toSwapHistoryFilters(values: FilterValues): SwapHistoryFilters {
  return {
    pageSize: PAGE_SIZE,
    coin: values.coin && isExchangeCoin(values.coin) ? values.coin : undefined,
    createTime: values.createTime
      ? [values.createTime[0].startOf('day').toISOString(), values.createTime[1].endOf('day').toISOString()]
      : undefined,
  };
}

/** The form's values as the list query of page `pageID`. */
export function toSwapFilters(values: FilterValues, pageID: number): SwapFilters {
  return { ...toSwapHistoryFilters(values), pageID };
}

/**
 * /my/order/swap: the user's swaps and flash exchanges, newest first, with
 * coin (all plus each wallet coin) and date filters — inline on desktop, in a modal with reset and
 * submit on mobile; pages of 10, appended in list mode on mobile.
 */
export function SwapHistoryPage() {
  const { t } = useTranslation('exchange');
  const isMobile = useIsMobile();
  const coins = useWalletCoins();
  const [values, setValues] = useState<FilterValues>({});
  const [pageID, setPageID] = useState(FIRST_PAGE_ID);
  const [form] = Form.useForm<FilterValues>();

  const apply = (next: FilterValues) => {
    setValues(next);
    setPageID(FIRST_PAGE_ID);
  };

  const coinOptions = [
    { value: '', label: t('history.all') },
    ...(coins.data ?? [])
      .filter((coin) => isExchangeCoin(coin.coinCode))
      .map((coin) => ({ value: coin.coinCode, label: coin.coinCode })),
  ];
  const filterFields = (
    <>
      <Form.Item name="coin" label={t('history.coin')}>
        <Select
          style={{ minWidth: 120 }}
          options={coinOptions}
          placeholder={t('history.all')}
          data-testid="swap-filter-coin"
        />
      </Form.Item>
      <Form.Item name="createTime" label={t('history.time')}>
        <DatePicker.RangePicker data-testid="swap-filter-time" />
      </Form.Item>
    </>
  );

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
            <SwapHistoryList filters={toSwapHistoryFilters(values)} />
          ) : (
            <SwapHistoryTable filters={toSwapFilters(values, pageID)} onPage={setPageID} />
          )}
        </div>
      </PageFrame>
    </RequireUser>
  );
}
