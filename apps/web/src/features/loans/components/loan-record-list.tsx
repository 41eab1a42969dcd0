import { Button, Flex, List } from 'antd';
import { useTranslation } from 'react-i18next';
import { rowsOfPages } from '../../../lib/paging.ts';
import type { LoanHistoryFilters, LoanRecordKind } from '../api/loan-keys.ts';
import { useRecordPages } from '../api/record-queries.ts';
import { ADJUST_VIEW, LIQUIDATION_VIEW, ORDER_VIEW, type RecordKindView, REPAY_VIEW } from './record-kinds.tsx';

/** Fields the mobile item lists under its title (the title and tag already show the main ones). */
const SKIPPED_ON_MOBILE = new Set(['status']);

/** A loan history on mobile, in list mode: pages appended by "more" until totalPage. */
function LoanRecordListOf<Row extends object>({
  view,
  filters,
}: {
  view: RecordKindView<Row>;
  filters: LoanHistoryFilters;
}) {
  const { t } = useTranslation('loans');
  const records = useRecordPages(view.kind, view.fetcher, filters);
  const rows = rowsOfPages(records.data?.pages, view.idOf);
  const fields = view.fields(t).filter((field) => !SKIPPED_ON_MOBILE.has(field.key));
  return (
    <>
      <List
        loading={(records.isPending || records.isFetching) && rows.length === 0}
        dataSource={rows}
        data-testid="loan-record-list"
        locale={{ emptyText: t('history.empty') }}
        renderItem={(row) => (
          <List.Item>
            <List.Item.Meta
              // The tag sits beside the title, wrapping under it when narrow: as the item's `extra` it
              // was drawn over the right-aligned figures below at 390 px (docs/accessibility.md).
              title={
                <Flex wrap gap={8} align="center" justify="space-between">
                  {view.titleOf(row, t)}
                  {view.extraOf(row)}
                </Flex>
              }
              description={
                <dl className="loan-record-item">
                  {fields.map((field) => (
                    <div key={field.key}>
                      <dt>{field.title}</dt>
                      <dd>{field.render(row)}</dd>
                    </div>
                  ))}
                </dl>
              }
            />
          </List.Item>
        )}
      />
      {records.hasNextPage && (
        <Button
          block
          onClick={() => void records.fetchNextPage()}
          loading={records.isFetching}
          data-testid="loan-record-more"
        >
          {t('history.more')}
        </Button>
      )}
    </>
  );
}

/** The history of `kind` (route `/my/order/loan/*`), with that history's fields. */
export default function LoanRecordList({ kind, filters }: { kind: LoanRecordKind; filters: LoanHistoryFilters }) {
  switch (kind) {
    case 'order':
      return <LoanRecordListOf view={ORDER_VIEW} filters={filters} />;
    case 'repay':
      return <LoanRecordListOf view={REPAY_VIEW} filters={filters} />;
    case 'adjust':
      return <LoanRecordListOf view={ADJUST_VIEW} filters={filters} />;
    case 'liquidation':
      return <LoanRecordListOf view={LIQUIDATION_VIEW} filters={filters} />;
  }
}
