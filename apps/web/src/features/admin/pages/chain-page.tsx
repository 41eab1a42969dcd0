import {
  type ChainOpsAlarm,
  type ChainOpsDeposit,
  type ChainOpsState,
  chainOpsEndpoints,
} from '@meridian/contracts/chain-ops';
import { Alert, Button, Card, Descriptions, Space, Table, type TableColumnsType, Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useChainMutations, useChainState } from '../api/chain-ops.ts';
import { useMayCall } from '../components/operator-context.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { QueryError } from '../components/query-error.tsx';
import { ReasonModal } from '../components/reason-modal.tsx';
import { adminUserPath } from '../lib/admin-paths.ts';
import { formatDateTime } from '../lib/time.ts';
import { ChainWithdrawalsSection, HotWalletSection } from './chain-withdrawals.tsx';

/** What the note modal is asked for: a review decision or an alarm resolution. */
type Deciding =
  | { kind: 'review'; id: number; action: 'release' | 'reject' }
  | { kind: 'alarm'; id: number; resolution: 'RELEASE_HOLD' | 'RECOVER' };

const short = (text: string) => (text.length > 14 ? `${text.slice(0, 8)}…${text.slice(-4)}` : text);
const amountOf = (row: ChainOpsDeposit) =>
  row.amount === null ? `${row.amountRaw} (raw)` : `${row.amount} ${row.coinCode}`;

/** Columns both deposit tables share: time, user, coin and amount, transaction, block. */
function depositColumns(t: TFunction<'admin'>, language: string): TableColumnsType<ChainOpsDeposit> {
  return [
    { title: t('common.time'), dataIndex: 'createdAt', render: (at: string) => formatDateTime(at, language) },
    {
      title: t('common.user'),
      dataIndex: 'userId',
      width: 120,
      ellipsis: true,
      render: (userId: string) => <Link to={adminUserPath(userId)}>{userId}</Link>,
    },
    { title: t('common.amount'), key: 'amount', render: (_, row) => amountOf(row) },
    { title: t('chain.usdValue'), dataIndex: 'usdValue', render: (usd: string | null) => usd ?? '—' },
    {
      title: t('chain.transaction'),
      dataIndex: 'txHash',
      render: (hash: string, row) => (
        <Typography.Text copyable={{ text: hash }} code>{`${short(hash)}:${row.logIndex}`}</Typography.Text>
      ),
    },
    { title: t('chain.block'), dataIndex: 'blockNumber' },
  ];
}

/** What one alarm row can be asked to do (none when the operator may not decide). */
interface AlarmActions {
  mayDecide: boolean;
  acknowledge: (id: number) => void;
  resolve: (id: number, resolution: 'RELEASE_HOLD' | 'RECOVER') => void;
}

/** Columns of the alarms table: what was credited, what is held, the orphaned block, status and actions. */
function alarmColumns(t: TFunction<'admin'>, language: string, actions: AlarmActions): TableColumnsType<ChainOpsAlarm> {
  return [
    { title: t('common.time'), dataIndex: 'createdAt', render: (at: string) => formatDateTime(at, language) },
    {
      title: t('common.user'),
      dataIndex: 'userId',
      width: 120,
      ellipsis: true,
      render: (userId: string) => <Link to={adminUserPath(userId)}>{userId}</Link>,
    },
    { title: t('common.amount'), key: 'amount', render: (_, row) => `${row.amount} ${row.coinCode}` },
    { title: t('chain.held'), key: 'held', render: (_, row) => `${row.held} ${row.coinCode}` },
    { title: t('chain.orphanedBlock'), dataIndex: 'orphanedBlockNumber' },
    {
      title: t('common.status'),
      dataIndex: 'status',
      render: (status: ChainOpsAlarm['status'], row) => (
        <Space orientation="vertical" size={2}>
          <Tag color={status === 'open' ? 'red' : 'gold'}>{t(`chain.alarmStatus.${status}`)}</Tag>
          {row.acknowledgedBy && <span>{row.acknowledgedBy}</span>}
        </Space>
      ),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) =>
        actions.mayDecide && (
          <Space wrap>
            {row.status === 'open' && (
              <Button size="small" onClick={() => actions.acknowledge(row.id)}>
                {t('chain.acknowledge')}
              </Button>
            )}
            <Button size="small" onClick={() => actions.resolve(row.id, 'RELEASE_HOLD')}>
              {t('chain.releaseHold')}
            </Button>
            <Button size="small" danger onClick={() => actions.resolve(row.id, 'RECOVER')}>
              {t('chain.recover')}
            </Button>
          </Space>
        ),
    },
  ];
}

/** The watcher's figures: head block, processed block, lag (blocks and seconds), when the cursor moved. */
function WatcherCard({ data }: { data: ChainOpsState | undefined }) {
  const { t, i18n } = useTranslation('admin');
  const lag =
    data?.lagBlocks === null || data?.lagBlocks === undefined
      ? '—'
      : t('chain.lagValue', { blocks: data.lagBlocks, seconds: data.lagSeconds ?? '—' });
  return (
    <Card size="small" style={{ margin: '16px 0' }} data-testid="chain-watcher">
      <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 4 }}>
        <Descriptions.Item label={t('chain.headBlock')}>{data?.headBlock ?? '—'}</Descriptions.Item>
        <Descriptions.Item label={t('chain.cursorBlock')}>{data?.cursorBlock ?? '—'}</Descriptions.Item>
        <Descriptions.Item label={t('chain.lag')}>{lag}</Descriptions.Item>
        <Descriptions.Item label={t('chain.cursorUpdatedAt')}>
          {data?.cursorUpdatedAt ? formatDateTime(data.cursorUpdatedAt, i18n.language) : '—'}
        </Descriptions.Item>
      </Descriptions>
    </Card>
  );
}

/** A review item's buttons: approve (a large one, first), credit, reject. */
function ReviewActions(props: { row: ChainOpsDeposit; onDecide: (deciding: Deciding) => void }) {
  const { row, onDecide } = props;
  const { t } = useTranslation('admin');
  const { approve } = useChainMutations();
  const isCreditable = row.amount !== null && row.reason !== 'dust';
  const needsApproval = row.needsSecondApproval && row.approvedBy === null;
  return (
    <Space wrap>
      {isCreditable && needsApproval && (
        <Button size="small" loading={approve.isPending} onClick={() => void approve.mutateAsync({ id: row.id })}>
          {t('chain.approve')}
        </Button>
      )}
      {isCreditable && !needsApproval && (
        <Button size="small" type="primary" onClick={() => onDecide({ kind: 'review', id: row.id, action: 'release' })}>
          {t('chain.release')}
        </Button>
      )}
      <Button size="small" danger onClick={() => onDecide({ kind: 'review', id: row.id, action: 'reject' })}>
        {t('chain.reject')}
      </Button>
    </Space>
  );
}

/** The review table's extra columns: reason (and the large-item marks), then the actions. */
function reviewColumns(
  t: TFunction<'admin'>,
  mayDecide: boolean,
  onDecide: (deciding: Deciding) => void,
): TableColumnsType<ChainOpsDeposit> {
  return [
    {
      title: t('chain.reason'),
      dataIndex: 'reason',
      render: (reason: string | null, row) => (
        <Space orientation="vertical" size={2}>
          {reason && <Tag>{t(`chain.reasons.${reason}`)}</Tag>}
          {row.needsSecondApproval && <Tag color="purple">{t('chain.large')}</Tag>}
          {row.approvedBy && <span>{t('chain.approvedBy', { operator: row.approvedBy })}</span>}
        </Space>
      ),
    },
    {
      title: t('common.actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => mayDecide && <ReviewActions row={row} onDecide={onDecide} />,
    },
  ];
}

/**
 * `/admin/chain`: the EVM deposit watcher for finance — head block, processed cursor and lag;
 * deposits waiting for confirmations (k of N); deposits held for review with release (a large one
 * approved first by another finance operator) or reject; reorganisation alarms with their held
 * amounts, acknowledged and resolved (release the hold, or recover it); the hot wallet (address,
 * balance per coin against its thresholds, balance alerts) and the withdrawals it sent (nonce, fees,
 * gas limit, attempts, status, hash), a page at a time. Polled every 10 s.
 */
export function ChainPage() {
  const { t, i18n } = useTranslation('admin');
  const state = useChainState();
  const { decide, acknowledge, resolve } = useChainMutations();
  const mayDecide = useMayCall(chainOpsEndpoints.releaseReview);
  const [deciding, setDeciding] = useState<Deciding | null>(null);
  const data = state.data;
  const base = depositColumns(t, i18n.language);
  const alarms = alarmColumns(t, i18n.language, {
    mayDecide,
    acknowledge: (id) => void acknowledge.mutateAsync({ id }),
    resolve: (id, resolution) => setDeciding({ kind: 'alarm', id, resolution }),
  });
  const confirmations: TableColumnsType<ChainOpsDeposit>[number] = {
    title: t('chain.confirmations'),
    key: 'confirmations',
    render: (_, row) => `${Math.min(row.confirmations, row.confirmationsRequired)} / ${row.confirmationsRequired}`,
  };
  const modalKey = deciding ? (deciding.kind === 'review' ? deciding.action : deciding.resolution) : null;
  const heading = (key: string) => (
    <Typography.Title level={2} style={{ fontSize: 18, marginTop: 24 }}>
      {t(key)}
    </Typography.Title>
  );
  const table = { rowKey: 'id', size: 'small', loading: state.isPending, pagination: false } as const;
  return (
    <>
      <PageTitle>{t('chain.title')}</PageTitle>
      {state.isError && <QueryError error={state.error} onRetry={() => void state.refetch()} />}
      {data && !data.isWatcherEnabled && <Alert type="info" showIcon message={t('chain.watcherOff')} />}
      {data?.nodeError && <Alert type="error" showIcon message={t('chain.nodeError', { message: data.nodeError })} />}
      <WatcherCard data={data} />
      {heading('chain.alarms')}
      <Table<ChainOpsAlarm>
        {...table}
        dataSource={data?.alarms}
        columns={alarms}
        scroll={{ x: 1000 }}
        data-testid="chain-alarms"
      />
      {heading('chain.review')}
      <Table<ChainOpsDeposit>
        {...table}
        dataSource={data?.review}
        columns={[...base, ...reviewColumns(t, mayDecide, setDeciding)]}
        scroll={{ x: 1200 }}
        data-testid="chain-review"
      />
      {heading('chain.pending')}
      <Table<ChainOpsDeposit>
        {...table}
        dataSource={data?.pending}
        columns={[...base, confirmations]}
        scroll={{ x: 1000 }}
        data-testid="chain-pending"
      />
      {heading('chain.hotWallet')}
      <HotWalletSection />
      {heading('chain.withdrawals')}
      <ChainWithdrawalsSection />
      <ReasonModal
        open={deciding !== null}
        title={modalKey ? t(`chain.${modalKey}Title`) : ''}
        okText={modalKey ? t(`chain.${modalKey}Ok`) : ''}
        label={t('chain.note')}
        isDanger={modalKey === 'reject' || modalKey === 'RECOVER'}
        isPending={decide.isPending || resolve.isPending}
        onCancel={() => setDeciding(null)}
        onSubmit={async (note) => {
          if (deciding?.kind === 'review') await decide.mutateAsync({ id: deciding.id, action: deciding.action, note });
          if (deciding?.kind === 'alarm')
            await resolve.mutateAsync({ id: deciding.id, resolution: deciding.resolution, note });
          setDeciding(null);
        }}
      />
    </>
  );
}
