import type { WalletRecord } from '@meridian/contracts/wallet';
import { Button, List } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { rowsOfPages } from '../../../lib/paging.ts';
import { useWalletRecordPages } from '../api/get-wallet-records.ts';
import type { RecordHistoryFilters } from '../api/wallet-keys.ts';
import { RecordCancelButton } from './record-cancel-button.tsx';
import { StatusTag } from './status-tag.tsx';
import { WithdrawalTxLink } from './withdrawal-tx-link.tsx';
import { money } from '../../../lib/money.ts';

const recordIdOf = (record: WalletRecord) => record.id;

/** The deposit or withdrawal history on mobile, in list mode: pages appended by "more" until totalPage. */
export function WalletHistoryList({ filters }: { filters: RecordHistoryFilters }) {
  const { t } = useTranslation('wallet');
  const records = useWalletRecordPages(filters);
  const rows = rowsOfPages(records.data?.pages, recordIdOf);
  const { action } = filters;

  return (
    <>
      <List
        loading={(records.isPending || records.isFetching) && rows.length === 0}
        dataSource={rows}
        data-testid="record-list"
        renderItem={(row) => (
          <List.Item
            extra={
              // The status and, for a waiting withdrawal, its Cancel, stacked with room between them.
              <div className="record-item-actions">
                <StatusTag
                  status={row.status}
                  action={action}
                  confirmations={row.confirmations}
                  confirmationsRequired={row.confirmationsRequired}
                />
                {action === 'withdraw' && row.status === 0 && <RecordCancelButton recordId={row.id} />}
              </div>
            }
          >
            <List.Item.Meta
              title={<span data-testid="record-amount">{money(row.amount, row.coinCode)}</span>}
              description={
                <>
                  {`${row.network} · ${t(`history.${row.type}`)} · ${dayjs(row.createTime).format('YYYY-MM-DD HH:mm')}`}
                  {action === 'withdraw' && row.txHash !== null && (
                    <div>
                      <WithdrawalTxLink record={row} />
                    </div>
                  )}
                </>
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
          data-testid="record-more"
        >
          {t('history.more')}
        </Button>
      )}
    </>
  );
}
