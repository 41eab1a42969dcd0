import type { AssetCode } from '@meridian/contracts/money';
import type { WalletRecord } from '@meridian/contracts/wallet';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { List, Typography } from 'antd';
import dayjs from 'dayjs';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { walletBalanceKey } from '../../../lib/get-wallet-balance.ts';
import { money } from '../../../lib/money.ts';
import { useUserId } from '../../../lib/session.ts';
import { getWalletRecords } from '../api/get-wallet-records.ts';
import { type RecordFilters, walletKeys } from '../api/wallet-keys.ts';
import { StatusTag } from './status-tag.tsx';

/** How often the deposit page asks for its coin's latest deposits: a new block's confirmation shows within this. */
export const RECENT_DEPOSITS_POLL_MS = 4000;
const RECENT_DEPOSITS_SHOWN = 5;

/** Ids of the deposits among `rows` that are credited (status 2). */
const creditedIds = (rows: WalletRecord[]) => new Set(rows.filter((row) => row.status === 2).map((row) => row.id));

/**
 * The user's latest deposits of `coin` on the deposit page, polled every `RECENT_DEPOSITS_POLL_MS`:
 * a deposit appears as soon as the watcher reads its block ("Pending · 1 of N confirmations"), its
 * count grows with each block, and when it is credited the balances are fetched again.
 */
export function RecentDeposits({ coin }: { coin: AssetCode }) {
  const { t } = useTranslation('wallet');
  const userId = useUserId();
  const client = useQueryClient();
  const filters: RecordFilters = { action: 'deposit', coin, pageID: 1, pageSize: RECENT_DEPOSITS_SHOWN };
  const records = useQuery({
    queryKey: walletKeys.records(filters),
    enabled: userId !== null,
    queryFn: ({ signal }) => getWalletRecords(filters, signal),
    refetchInterval: RECENT_DEPOSITS_POLL_MS,
  });
  const rows = records.data?.list ?? [];
  const credited = useRef<Set<string> | undefined>(undefined);
  useEffect(() => {
    if (!records.data) return;
    const now = creditedIds(records.data.list);
    const before = credited.current;
    credited.current = now;
    // A deposit credited since the last poll changed the balance the page and the header show.
    if (before && [...now].some((id) => !before.has(id))) void client.invalidateQueries({ queryKey: walletBalanceKey });
  }, [records.data, client]);
  return (
    <List
      size="small"
      header={<Typography.Text strong>{t('deposit.recentTitle')}</Typography.Text>}
      loading={records.isPending && userId !== null}
      dataSource={rows}
      locale={{ emptyText: t('deposit.recentEmpty') }}
      data-testid="recent-deposits"
      renderItem={(row) => (
        <List.Item
          data-testid="recent-deposit"
          extra={
            <StatusTag
              status={row.status}
              action="deposit"
              confirmations={row.confirmations}
              confirmationsRequired={row.confirmationsRequired}
            />
          }
        >
          <List.Item.Meta
            title={<span data-testid="record-amount">{money(row.amount, row.coinCode)}</span>}
            description={`${row.network} · ${dayjs(row.createTime).format('YYYY-MM-DD HH:mm')}${
              row.status === 2 ? ` · ${t('deposit.creditedNote')}` : ''
            }`}
          />
        </List.Item>
      )}
    />
  );
}
