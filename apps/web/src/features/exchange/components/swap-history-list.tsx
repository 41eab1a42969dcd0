import type { SwapRecord } from '@meridian/contracts/exchange';
import { Button, List } from 'antd';
import { useTranslation } from 'react-i18next';
import { rowsOfPages } from '../../../lib/paging.ts';
import type { SwapHistoryFilters } from '../api/exchange-keys.ts';
import { useSwapHistoryPages } from '../api/get-swap-history.ts';
import { SwapKindTag, SwapPaid, SwapRate, SwapReceived, SwapTime } from './swap-history-cells.tsx';

const swapIdOf = (record: SwapRecord) => record.swapId;

/** The swap history on mobile, in list mode: pages appended by "more" until totalPage. */
export function SwapHistoryList({ filters }: { filters: SwapHistoryFilters }) {
  const { t } = useTranslation('exchange');
  const history = useSwapHistoryPages(filters);
  const rows = rowsOfPages(history.data?.pages, swapIdOf);

  return (
    <>
      <List
        loading={(history.isPending || history.isFetching) && rows.length === 0}
        dataSource={rows}
        locale={{ emptyText: t('history.empty') }}
        data-testid="swap-list"
        renderItem={(record) => (
          <List.Item extra={<SwapKindTag record={record} />}>
            <List.Item.Meta
              title={
                <span>
                  <SwapPaid record={record} />
                  {' → '}
                  <SwapReceived record={record} />
                </span>
              }
              description={
                <span className="swap-history__meta">
                  <SwapRate record={record} />
                  <SwapTime executedAt={record.executedAt} />
                </span>
              }
            />
          </List.Item>
        )}
      />
      {history.hasNextPage && (
        <Button block onClick={() => void history.fetchNextPage()} loading={history.isFetching} data-testid="swap-more">
          {t('history.more')}
        </Button>
      )}
    </>
  );
}
