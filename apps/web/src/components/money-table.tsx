import { List, Table, type TableColumnType, type TableProps } from 'antd';
import type { Key, ReactNode } from 'react';
import { useIsMobile } from '../lib/viewport.ts';
import './money-table.css';

/**
 * Where a column goes in the stacked rendering under the `md` breakpoint (docs/decisions/0012):
 * - `title`: the row's name, top left (the coin, the product, the date);
 * - `figure`: the row's main amount, top right, never cut (it wraps rather than overflow);
 * - `field` (default): a label/value line below;
 * - `actions`: the row's buttons, last, wrapping onto more lines when they do not fit;
 * - `hidden`: not shown on a phone (said elsewhere on the row or the page).
 */
export type MobileSlot = 'title' | 'figure' | 'field' | 'actions' | 'hidden';

/** A column of `MoneyTable`: Ant Design's column (with `key` or `dataIndex`) plus its place on a phone. */
export type MoneyColumn<Row> = TableColumnType<Row> & { mobile?: MobileSlot };

/** `MoneyTable`'s props: a Table's, with its columns' phone slots and the test id of the stacked list. */
export interface MoneyTableProps<Row extends object> extends Omit<TableProps<Row>, 'columns' | 'rowKey'> {
  columns: MoneyColumn<Row>[];
  rowKey: (keyof Row & string) | ((row: Row) => Key);
  /** `data-testid` of the stacked list (the table keeps `data-testid`). */
  mobileTestId?: string;
}

/** The cell a column renders for `row`, as the Table would (its `render`, else the value at `dataIndex`). */
function cellOf<Row extends object>(column: MoneyColumn<Row>, row: Row, index: number): ReactNode {
  const path = column.dataIndex === undefined ? [] : ([] as (string | number)[]).concat(column.dataIndex as never);
  const value = path.reduce<unknown>(
    (node, key) => (node === null || node === undefined ? node : (node as Record<string | number, unknown>)[key]),
    row,
  );
  if (column.render) return column.render(value, row, index) as ReactNode;
  return value === null || value === undefined ? '' : String(value);
}

/** A column's identity for React keys. */
const columnKey = <Row,>(column: MoneyColumn<Row>, at: number) =>
  String(column.key ?? (Array.isArray(column.dataIndex) ? column.dataIndex.join('.') : column.dataIndex) ?? at);

/** One row as a stacked item: title and figure on top, then label/value lines, then the actions. */
function StackedRow<Row extends object>({
  row,
  index,
  columns,
}: {
  row: Row;
  index: number;
  columns: MoneyColumn<Row>[];
}) {
  const of = (slot: MobileSlot) =>
    columns.map((column, at) => ({ column, at })).filter(({ column }) => (column.mobile ?? 'field') === slot);
  const heads = of('title');
  const figures = of('figure');
  const fields = of('field');
  const actions = of('actions');
  return (
    <div className="money-stack-item" data-testid="money-stack-item">
      {(heads.length > 0 || figures.length > 0) && (
        <div className="money-stack-head">
          <div className="money-stack-title">
            {heads.map(({ column, at }) => (
              <span key={columnKey(column, at)}>{cellOf(column, row, index)}</span>
            ))}
          </div>
          <div className="money-stack-figure">
            {figures.map(({ column, at }) => (
              <span key={columnKey(column, at)}>{cellOf(column, row, index)}</span>
            ))}
          </div>
        </div>
      )}
      {fields.length > 0 && (
        <dl className="money-stack-fields">
          {fields.map(({ column, at }) => (
            <div key={columnKey(column, at)}>
              <dt>{typeof column.title === 'function' ? null : column.title}</dt>
              <dd>{cellOf(column, row, index)}</dd>
            </div>
          ))}
        </dl>
      )}
      {actions.length > 0 && (
        <div className="money-stack-actions">
          {actions.map(({ column, at }) => (
            <div key={columnKey(column, at)}>{cellOf(column, row, index)}</div>
          ))}
        </div>
      )}
    </div>
  );
}

/**
 * The one table of money of the app (docs/decisions/0012-responsive-money-tables.md): Ant Design's
 * `Table` from the `md` breakpoint (768 px) up; below it, the same rows stacked as a list, every
 * figure and action on screen without sideways scrolling — each column in the slot its `mobile`
 * names. Loading, empty text and pagination (an object: current page, size, total, onChange) carry
 * over to the list.
 */
export function MoneyTable<Row extends object>(props: MoneyTableProps<Row>) {
  const isMobile = useIsMobile();
  const { columns, rowKey, mobileTestId, ...tableProps } = props;
  if (!isMobile)
    return (
      <Table<Row>
        {...tableProps}
        rowKey={rowKey as TableProps<Row>['rowKey']}
        columns={columns.map(({ mobile: _slot, ...column }) => column)}
      />
    );
  const pagination = typeof tableProps.pagination === 'object' ? tableProps.pagination : undefined;
  const keyOf = (row: Row) => (typeof rowKey === 'function' ? rowKey(row) : (row[rowKey] as Key));
  return (
    <List<Row>
      className="money-stack"
      data-testid={mobileTestId}
      loading={Boolean(tableProps.loading)}
      dataSource={[...(tableProps.dataSource ?? [])]}
      rowKey={keyOf}
      locale={tableProps.locale?.emptyText ? { emptyText: tableProps.locale.emptyText as ReactNode } : undefined}
      pagination={
        pagination && (pagination.total ?? 0) > (pagination.pageSize ?? 10)
          ? {
              current: pagination.current,
              pageSize: pagination.pageSize,
              total: pagination.total,
              onChange: pagination.onChange,
              simple: true,
              align: 'center',
            }
          : false
      }
      renderItem={(row, index) => (
        <List.Item>
          <StackedRow row={row} index={index} columns={columns} />
        </List.Item>
      )}
    />
  );
}
