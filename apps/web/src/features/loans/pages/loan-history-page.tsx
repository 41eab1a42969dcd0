import { LOAN_COINS } from '@meridian/contracts/loans';
import { Button, DatePicker, Form, Result, Select, Skeleton } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { HistoryFilters } from '../../../components/history-filters.tsx';
import { PageFrame } from '../../../components/page-frame.tsx';
import { RequireUser } from '../../../components/require-user.tsx';
import { FIRST_PAGE_ID } from '../../../lib/paging.ts';
import { useUserId } from '../../../lib/session.ts';
import { useIsMobile } from '../../../lib/viewport.ts';
import type { LoanRecordKind } from '../api/loan-keys.ts';
import { RECORD_FETCHERS } from '../api/record-fetchers.ts';
import { type RecordFetcher, useRecordPage, useRecordPages } from '../api/record-queries.ts';
import { kycLinkOf, loanAccessOf } from '../lib/loan-access.ts';
import { type LoanFilterValues, toLoanFilters } from '../lib/loan-filters.ts';
import './loans.css';

/**
 * Each device loads only its view of the rows: the table on desktop, the appending list on mobile;
 * neither is on the page's first paint.
 */
const LoanRecordTable = lazy(() => import('../components/loan-record-table.tsx'));
const LoanRecordList = lazy(() => import('../components/loan-record-list.tsx'));

/**
 * One loan history of `/my/order/loan/*` (LoanOrder, LoanRepayRecord, LoanAdjustRecord,
 * LoanLiquidationRecord, with the LoanHistory tabs): filters (coin, dates) inline on desktop and in
 * a modal on mobile, pages of 10, appended in list mode on mobile. Below level 2 the verification
 * prompt of the server's 143 answer.
 */
function LoanHistory({ kind }: { kind: LoanRecordKind }) {
  const { t } = useTranslation('loans');
  const userId = useUserId();
  const isMobile = useIsMobile();
  const location = useLocation();
  const [values, setValues] = useState<LoanFilterValues>({});
  const [pageID, setPageID] = useState(FIRST_PAGE_ID);
  const [form] = Form.useForm<LoanFilterValues>();
  const filters = toLoanFilters(values);
  // Asked for here, not only in the lazily loaded table or list (same query keys, one request): the
  // rows load while the view's code does.
  const fetcher: RecordFetcher<unknown> = RECORD_FETCHERS[kind];
  const page = useRecordPage(kind, fetcher, { ...filters, pageID }, !isMobile);
  const pages = useRecordPages(kind, fetcher, filters, isMobile);
  const access = loanAccessOf(userId !== null, isMobile ? pages.error : page.error);

  const apply = (next: LoanFilterValues) => {
    setValues(next);
    setPageID(FIRST_PAGE_ID);
  };
  const all = { value: '', label: t('history.all') };
  const fields = (
    <>
      <Form.Item name="loanCoin" label={t('history.coin')}>
        <Select
          style={{ minWidth: 110 }}
          data-testid="filter-coin"
          placeholder={t('history.all')}
          options={[all, ...LOAN_COINS.map((coin) => ({ value: coin, label: coin }))]}
        />
      </Form.Item>
      <Form.Item name="createTime" label={t('history.time')}>
        <DatePicker.RangePicker />
      </Form.Item>
    </>
  );

  if (access.kind === 'kyc') {
    return (
      <Result
        status="warning"
        title={t('calc.verifyTitle')}
        subTitle={t('calc.verifyBody')}
        data-testid="loan-verify"
        extra={
          <Link to={kycLinkOf(access.route, `${location.pathname}${location.search}`)}>
            <Button type="primary">{t('calc.verify')}</Button>
          </Link>
        }
      />
    );
  }
  return (
    <div className="content-card" data-testid={`loan-history-${kind}`}>
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
          <LoanRecordList kind={kind} filters={filters} />
        ) : (
          <LoanRecordTable kind={kind} filters={{ ...filters, pageID }} onPage={setPageID} />
        )}
      </Suspense>
    </div>
  );
}

function LoanHistoryPage({ kind }: { kind: LoanRecordKind }) {
  return (
    <RequireUser>
      <PageFrame>
        <LoanHistory kind={kind} />
      </PageFrame>
    </RequireUser>
  );
}

/** /my/order/loan/history (LoanOrder). */
export function LoanOrderPage() {
  return <LoanHistoryPage kind="order" />;
}

/** /my/order/loan/repay (LoanRepayRecord). */
export function LoanRepayRecordPage() {
  return <LoanHistoryPage kind="repay" />;
}

/** /my/order/loan/adjust (LoanAdjustRecord). */
export function LoanAdjustRecordPage() {
  return <LoanHistoryPage kind="adjust" />;
}

/** /my/order/loan/liquidation (LoanLiquidationRecord), each with its receipt. */
export function LoanLiquidationRecordPage() {
  return <LoanHistoryPage kind="liquidation" />;
}
