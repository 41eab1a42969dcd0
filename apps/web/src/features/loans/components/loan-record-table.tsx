import { Table, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LoanPageFilters, LoanRecordKind } from '../api/loan-keys.ts';
import { useRecordPage } from '../api/record-queries.ts';
import { ADJUST_VIEW, LIQUIDATION_VIEW, ORDER_VIEW, type RecordKindView, REPAY_VIEW } from './record-kinds.tsx';

/** A loan history on desktop: one page at a time with a pager. */
function LoanRecordTableOf<Row extends object>({
  view,
  filters,
  onPage,
}: {
  view: RecordKindView<Row>;
  filters: LoanPageFilters;
  onPage: (pageID: number) => void;
}) {
  const { t } = useTranslation('loans');
  const records = useRecordPage(view.kind, view.fetcher, filters);
  const columns: TableColumnsType<Row> = view.fields(t).map((field) => ({
    key: field.key,
    title: field.title,
    align: field.align,
    render: (_value: unknown, row: Row) => field.render(row),
  }));
  return (
    <Table<Row>
      rowKey={view.idOf}
      loading={records.isPending || records.isFetching}
      dataSource={records.data?.list ?? []}
      columns={columns}
      size="middle"
      tableLayout="auto"
      scroll={{ x: 'max-content' }}
      data-testid="loan-record-table"
      locale={{ emptyText: t('history.empty') }}
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

/** The history of `kind` (route `/my/order/loan/*`), with that history's fields. */
export default function LoanRecordTable({
  kind,
  filters,
  onPage,
}: {
  kind: LoanRecordKind;
  filters: LoanPageFilters;
  onPage: (pageID: number) => void;
}) {
  switch (kind) {
    case 'order':
      return <LoanRecordTableOf view={ORDER_VIEW} filters={filters} onPage={onPage} />;
    case 'repay':
      return <LoanRecordTableOf view={REPAY_VIEW} filters={filters} onPage={onPage} />;
    case 'adjust':
      return <LoanRecordTableOf view={ADJUST_VIEW} filters={filters} onPage={onPage} />;
    case 'liquidation':
      return <LoanRecordTableOf view={LIQUIDATION_VIEW} filters={filters} onPage={onPage} />;
  }
}
