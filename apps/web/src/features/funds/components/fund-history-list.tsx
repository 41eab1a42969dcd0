import type { FundOrder } from '@meridian/contracts/funds';
import { Button, List } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { rowsOfPages } from '../../../lib/paging.ts';
import { useFundOrderPages } from '../api/get-fund-orders.ts';
import type { FundHistoryFilters } from '../api/fund-keys.ts';
import { FundStatusTag, useChannelLabel } from './fund-order-cells.tsx';
import { money } from '../../../lib/money.ts';

const orderIdOf = (order: FundOrder) => order.id;

/** The fund history on mobile, in list mode: pages appended by "more" until totalPage. */
export function FundHistoryList({ filters }: { filters: FundHistoryFilters }) {
  const { t } = useTranslation('funds');
  const orders = useFundOrderPages(filters);
  const rows = rowsOfPages(orders.data?.pages, orderIdOf);
  const channelOf = useChannelLabel();
  return (
    <>
      <List
        loading={(orders.isPending || orders.isFetching) && rows.length === 0}
        dataSource={rows}
        data-testid="fund-order-list"
        renderItem={(row) => (
          <List.Item extra={<FundStatusTag status={row.status} />}>
            <List.Item.Meta
              title={
                <span>
                  {`${t(`action.${row.action}`)} · `}
                  <span data-testid="fund-order-amount">{money(row.amount, 'USD')}</span>
                </span>
              }
              description={
                <>
                  <div>{`${row.productName} · ${channelOf(row)}`}</div>
                  {row.interest !== null && (
                    <div>{t('history.interestValue', { amount: money(row.interest, 'USD', { unit: 'none' }) })}</div>
                  )}
                  {row.maturityDate && <div>{t('history.maturityValue', { date: row.maturityDate })}</div>}
                  {row.wire && <div>{t('history.referenceValue', { reference: row.wire.reference })}</div>}
                  <div>{dayjs(row.createTime).format('YYYY-MM-DD HH:mm')}</div>
                </>
              }
            />
          </List.Item>
        )}
      />
      {orders.hasNextPage && (
        <Button
          block
          onClick={() => void orders.fetchNextPage()}
          loading={orders.isFetching}
          data-testid="fund-order-more"
        >
          {t('history.more')}
        </Button>
      )}
    </>
  );
}
