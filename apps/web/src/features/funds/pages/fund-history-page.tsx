import { FUND_ORDER_ACTIONS, FUND_STABLECOINS, FUND_TYPES } from '@meridian/contracts/funds';
import { DatePicker, Form, Select, Skeleton } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HistoryFilters } from '../../../components/history-filters.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { RequireUser } from '../../../components/require-user.tsx';
import { FIRST_PAGE_ID } from '../../../lib/paging.ts';
import { useUserId } from '../../../lib/session.ts';
import { useIsMobile } from '../../../lib/viewport.ts';
import { useFundAsset } from '../api/get-fund-asset.ts';
import { useFundOrderPages, useFundOrders } from '../api/get-fund-orders.ts';
import { FundAccessPrompt } from '../components/fund-access-prompt.tsx';
import { fundAccessOf } from '../lib/fund-access.ts';
import { type FundFilterValues, toFundFilters } from '../lib/fund-filters.ts';

/**
 * Each device loads only its view of the rows: the table (Ant Design's Table, ~44 KB) on desktop, the
 * appending list on mobile; neither is on the page's first paint.
 */
const FundHistoryTable = lazy(() =>
  import('../components/fund-history-table.tsx').then((m) => ({ default: m.FundHistoryTable })),
);
const FundHistoryList = lazy(() =>
  import('../components/fund-history-list.tsx').then((m) => ({ default: m.FundHistoryList })),
);

/**
 * /my/order/fund, FundHistory: subscriptions, redemptions, interest payouts and
 * maturities, with filters (fund type, action, coin, dates) inline on desktop and in a modal on
 * mobile; pages of 10, appended in list mode on mobile.
 */
export function FundHistoryPage() {
  const { t } = useTranslation('funds');
  const userId = useUserId();
  const isMobile = useIsMobile();
  const [values, setValues] = useState<FundFilterValues>({});
  const [pageID, setPageID] = useState(FIRST_PAGE_ID);
  const [form] = Form.useForm<FundFilterValues>();
  // The level gate: the fund calls need level 2; the asset call (cached, shared with the account page) tells.
  const asset = useFundAsset();
  const access = fundAccessOf(userId !== null, asset.error);

  const apply = (next: FundFilterValues) => {
    setValues(next);
    setPageID(FIRST_PAGE_ID);
  };
  const all = { value: '', label: t('history.all') };
  const fields = (
    <>
      <Form.Item name="type" label={t('history.type')}>
        <Select
          style={{ minWidth: 120 }}
          data-testid="filter-type"
          placeholder={t('history.all')}
          options={[all, ...FUND_TYPES.map((type) => ({ value: type, label: t(`type.${type}`) }))]}
        />
      </Form.Item>
      <Form.Item name="action" label={t('history.action')}>
        <Select
          style={{ minWidth: 120 }}
          data-testid="filter-action"
          placeholder={t('history.all')}
          options={[all, ...FUND_ORDER_ACTIONS.map((action) => ({ value: action, label: t(`action.${action}`) }))]}
        />
      </Form.Item>
      <Form.Item name="coin" label={t('history.coin')}>
        <Select
          style={{ minWidth: 110 }}
          data-testid="filter-coin"
          placeholder={t('history.all')}
          options={[all, ...FUND_STABLECOINS.map((coin) => ({ value: coin, label: coin }))]}
        />
      </Form.Item>
      <Form.Item name="createTime" label={t('history.time')}>
        <DatePicker.RangePicker />
      </Form.Item>
    </>
  );

  const filters = toFundFilters(values);
  // Asked for here, not only in the lazily loaded table or list (same query keys, one request): the
  // rows load while the view's code does, instead of after it.
  useFundOrders({ ...filters, pageID }, !isMobile);
  useFundOrderPages(filters, isMobile);
  return (
    <RequireUser>
      <PageFrame>
        {access.kind !== 'ok' ? (
          <FundAccessPrompt access={access} />
        ) : (
          <div className="content-card" data-testid="fund-history">
            <HistoryFilters
              form={form}
              fields={fields}
              onApply={apply}
              isMobile={isMobile}
              labels={{ filter: t('history.filter'), reset: t('history.reset'), submit: t('history.submit') }}
              testIdPrefix="filter"
            />
            <Suspense fallback={<Skeleton active />}>
              {isMobile ? (
                <FundHistoryList filters={filters} />
              ) : (
                <FundHistoryTable filters={{ ...filters, pageID }} onPage={setPageID} />
              )}
            </Suspense>
          </div>
        )}
      </PageFrame>
    </RequireUser>
  );
}
