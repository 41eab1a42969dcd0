import {
  type ChainWithdrawal,
  type ChainWithdrawalStatus,
  chainWithdrawalStatusSchema,
  type HotWallet,
  type HotWalletBalance,
} from '@meridian/contracts/chain-withdrawals';
import { Card, Descriptions, Space, Tag, Typography } from 'antd';
import Decimal from 'decimal.js';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type MoneyColumn, MoneyTable } from '../../../components/money-table.tsx';
import { useChainWithdrawals, useHotWallet } from '../api/chain-withdrawals.ts';
import { QueryError } from '../components/query-error.tsx';
import { StatusFilter } from '../components/status-filter.tsx';
import { formatDateTime } from '../lib/time.ts';
import { usePaging } from '../lib/use-paging.ts';

type HotWalletAlert = HotWallet['alerts'][number];

const short = (text: string) => (text.length > 14 ? `${text.slice(0, 8)}…${text.slice(-4)}` : text);

/** A chain withdrawal's status tag: green once confirmed, red when reverted, blue while under way. */
const STATUS_COLOURS: Record<ChainWithdrawalStatus, string> = {
  SIGNED: 'default',
  BROADCAST: 'processing',
  MINED: 'blue',
  CONFIRMED: 'green',
  REVERTED: 'red',
};

/** A transaction hash, shortened, linked to the block explorer and copyable (the whole hash). */
function TxHash({ hash, url }: { hash: string | null; url: string | null }) {
  if (hash === null) return <>—</>;
  return (
    <Typography.Text copyable={{ text: hash }} code data-testid="chain-withdrawal-hash">
      {url ? (
        <a href={url} target="_blank" rel="noreferrer">
          {short(hash)}
        </a>
      ) : (
        short(hash)
      )}
    </Typography.Text>
  );
}

/** Columns of the hot wallet's withdrawals: nonce, status, coin, fees, gas limit, attempts, hash, block, times. */
function withdrawalColumns(t: TFunction<'admin'>, language: string): MoneyColumn<ChainWithdrawal>[] {
  return [
    {
      title: t('chain.nonce'),
      dataIndex: 'nonce',
      mobile: 'title',
      render: (nonce: number) => <span data-testid="chain-withdrawal-nonce">{t('chain.nonceValue', { nonce })}</span>,
    },
    {
      title: t('common.status'),
      dataIndex: 'status',
      mobile: 'figure',
      render: (status: ChainWithdrawalStatus, row) => (
        <Space orientation="vertical" size={2}>
          <Tag color={STATUS_COLOURS[status]}>{t(`chain.withdrawalStatus.${status}`)}</Tag>
          {row.failureReason && <Typography.Text type="danger">{row.failureReason}</Typography.Text>}
        </Space>
      ),
    },
    { title: t('chain.withdrawal'), dataIndex: 'withdrawalId' },
    { title: t('common.asset'), dataIndex: 'coinCode' },
    { title: t('chain.maxFee'), dataIndex: 'maxFeePerGasGwei', render: (gwei: string) => `${gwei} gwei` },
    { title: t('chain.priorityFee'), dataIndex: 'maxPriorityFeePerGasGwei', render: (gwei: string) => `${gwei} gwei` },
    { title: t('chain.gasLimit'), dataIndex: 'gasLimit' },
    { title: t('chain.attempts'), dataIndex: 'attempts' },
    {
      title: t('chain.transaction'),
      dataIndex: 'txHash',
      render: (hash: string | null, row) => <TxHash hash={hash} url={row.explorerUrl} />,
    },
    { title: t('chain.block'), dataIndex: 'minedBlock', render: (block: number | null) => block ?? '—' },
    { title: t('chain.created'), dataIndex: 'createTime', render: (at: string) => formatDateTime(at, language) },
    {
      title: t('chain.sent'),
      dataIndex: 'broadcastTime',
      render: (at: string | null) => (at ? formatDateTime(at, language) : '—'),
    },
    {
      title: t('chain.updated'),
      dataIndex: 'updateTime',
      render: (at: string | null) => (at ? formatDateTime(at, language) : '—'),
    },
  ];
}

/**
 * The withdrawals sent from the hot wallet, newest first, one page at a time, with a status filter:
 * each with its nonce, fees (gwei), gas limit, attempts, status and hash linked to the explorer.
 */
export function ChainWithdrawalsSection() {
  const { t, i18n } = useTranslation('admin');
  const paging = usePaging();
  const [status, setStatus] = useState<ChainWithdrawalStatus | 'all'>('all');
  const list = useChainWithdrawals({
    pageID: paging.pageID,
    pageSize: paging.pageSize,
    status: status === 'all' ? undefined : status,
  });
  return (
    <>
      <Space wrap style={{ marginBottom: 8 }}>
        <StatusFilter
          value={status}
          statuses={chainWithdrawalStatusSchema.options}
          all="all"
          labelOf={(option) => t(`chain.withdrawalStatus.${option}`)}
          onChange={(next) => {
            setStatus(next);
            paging.reset();
          }}
        />
      </Space>
      {list.isError && <QueryError error={list.error} onRetry={() => void list.refetch()} />}
      <MoneyTable<ChainWithdrawal>
        rowKey="id"
        size="small"
        loading={list.isPending}
        dataSource={list.data?.list ?? []}
        columns={withdrawalColumns(t, i18n.language)}
        pagination={paging.pagination(list.data?.totalCount)}
        scroll={{ x: 1500 }}
        data-testid="chain-withdrawals"
        mobileTestId="chain-withdrawals-list"
      />
    </>
  );
}

/** A balance against its thresholds: below the minimum red, above the maximum gold. */
function BalanceFigure({ row }: { row: HotWalletBalance }) {
  const { t } = useTranslation('admin');
  if (row.balance === null) return <Typography.Text type="secondary">{t('chain.balanceUnknown')}</Typography.Text>;
  const balance = new Decimal(row.balance);
  const isLow = row.min !== null && balance.lessThan(row.min);
  const isExcess = row.max !== null && balance.greaterThan(row.max);
  return (
    <Space size={4} wrap>
      <span>{`${row.balance} ${row.coinCode}`}</span>
      {isLow && <Tag color="red">{t('chain.alertKind.low')}</Tag>}
      {isExcess && <Tag color="gold">{t('chain.alertKind.excess')}</Tag>}
    </Space>
  );
}

/** Columns of the hot wallet's balances: coin, balance (with its state), minimum, maximum. */
function balanceColumns(t: TFunction<'admin'>): MoneyColumn<HotWalletBalance>[] {
  return [
    { title: t('common.asset'), dataIndex: 'coinCode', mobile: 'title' },
    { title: t('chain.balance'), key: 'balance', mobile: 'figure', render: (_, row) => <BalanceFigure row={row} /> },
    { title: t('chain.min'), dataIndex: 'min', render: (min: string | null) => min ?? t('chain.notSet') },
    { title: t('chain.max'), dataIndex: 'max', render: (max: string | null) => max ?? t('chain.notSet') },
  ];
}

/** Columns of the balance alerts: time, coin and kind, balance against the limit, status. */
function alertColumns(t: TFunction<'admin'>, language: string): MoneyColumn<HotWalletAlert>[] {
  return [
    {
      title: t('common.time'),
      dataIndex: 'createTime',
      mobile: 'title',
      render: (at: string) => formatDateTime(at, language),
    },
    {
      title: t('chain.alert'),
      key: 'kind',
      mobile: 'figure',
      render: (_, row) => (
        <Tag color={row.kind === 'low' ? 'red' : 'gold'}>{`${row.coinCode} · ${t(`chain.alertKind.${row.kind}`)}`}</Tag>
      ),
    },
    { title: t('chain.balance'), key: 'balance', render: (_, row) => `${row.balance} ${row.coinCode}` },
    { title: t('chain.limit'), key: 'limit', render: (_, row) => `${row.limit} ${row.coinCode}` },
    {
      title: t('common.status'),
      dataIndex: 'status',
      render: (status: HotWalletAlert['status'], row) =>
        status === 'open'
          ? t('chain.alertStatus.open')
          : t('chain.alertStatus.resolvedAt', {
              at: row.resolvedTime ? formatDateTime(row.resolvedTime, language) : '',
            }),
    },
  ];
}

/**
 * The hot wallet: its address and next nonce, its balance per coin against EVM_HOT_WALLET_MIN / _MAX,
 * and its balance alerts (open ones first: low queues the coin's withdrawals, excess asks for a move
 * to cold storage).
 */
export function HotWalletSection() {
  const { t, i18n } = useTranslation('admin');
  const wallet = useHotWallet();
  const data = wallet.data;
  const table = { size: 'small', loading: wallet.isPending, pagination: false } as const;
  return (
    <>
      {wallet.isError && <QueryError error={wallet.error} onRetry={() => void wallet.refetch()} />}
      <Card size="small" style={{ margin: '0 0 16px' }} data-testid="chain-hot-wallet">
        <Descriptions size="small" column={{ xs: 1, sm: 2 }}>
          <Descriptions.Item label={t('chain.address')}>
            {data?.address ? (
              <Typography.Text copyable code style={{ wordBreak: 'break-all' }}>
                {data.address}
              </Typography.Text>
            ) : (
              t('chain.noHotWallet')
            )}
          </Descriptions.Item>
          <Descriptions.Item label={t('chain.nextNonce')}>{data?.nextNonce ?? '—'}</Descriptions.Item>
        </Descriptions>
      </Card>
      <MoneyTable<HotWalletBalance>
        {...table}
        rowKey="coinCode"
        dataSource={data?.balances ?? []}
        columns={balanceColumns(t)}
        data-testid="chain-hot-wallet-balances"
        mobileTestId="chain-hot-wallet-balances-list"
      />
      <Typography.Title level={3} style={{ fontSize: 16, marginTop: 16 }}>
        {t('chain.alerts')}
      </Typography.Title>
      <MoneyTable<HotWalletAlert>
        {...table}
        rowKey="id"
        dataSource={data?.alerts ?? []}
        columns={alertColumns(t, i18n.language)}
        scroll={{ x: 800 }}
        data-testid="chain-hot-wallet-alerts"
        mobileTestId="chain-hot-wallet-alerts-list"
      />
    </>
  );
}
