import type { Dashboard } from '@meridian/contracts/back-office';
import { Alert, Card, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { isShortfall } from '../lib/balance-preview.ts';
import { formatDateTime, splitDuration } from '../lib/time.ts';

type QueueStat = Dashboard['queues'][number];

/** The age of a queue's oldest item, "5 h 12 min", or a dash for an empty queue. */
function useAgeText() {
  const { t } = useTranslation('admin');
  return (oldestAt: string | null) => {
    if (!oldestAt) return '—';
    return t('common.duration', splitDuration(Date.now() - new Date(oldestAt).getTime()));
  };
}

/** The last ledger check: a green line when it balanced, else its problems in red; with its time. */
export function LedgerCheckAlert({ ledgerCheck }: { ledgerCheck: Dashboard['ledgerCheck'] }) {
  const { t, i18n } = useTranslation('admin');
  const checkedAt = t('dashboard.checkedAt', { at: formatDateTime(ledgerCheck.checkedAt, i18n.language) });
  if (ledgerCheck.isOk)
    return <Alert type="success" showIcon title={t('dashboard.ledgerOk')} description={checkedAt} />;
  return (
    <Alert
      type="error"
      showIcon
      title={t('dashboard.ledgerProblems')}
      description={
        <>
          <ul style={{ margin: 0 }}>
            {ledgerCheck.problems.map((problem) => (
              <li key={problem}>{problem}</li>
            ))}
          </ul>
          {checkedAt}
        </>
      }
    />
  );
}

/** Each review queue's size and oldest item against its SLA; an overdue queue's row is red. */
export function QueuesCard({ queues }: { queues: Dashboard['queues'] }) {
  const { t } = useTranslation('admin');
  const ageText = useAgeText();
  return (
    <Card title={t('dashboard.queues')}>
      <Table<QueueStat>
        rowKey="queue"
        size="small"
        pagination={false}
        dataSource={queues}
        rowClassName={(row) => (row.isOverdue ? 'admin-row-overdue' : '')}
        columns={[
          {
            title: t('dashboard.queue'),
            dataIndex: 'queue',
            render: (queue: QueueStat['queue']) => t(`queues.${queue}`),
          },
          { title: t('dashboard.size'), dataIndex: 'size', align: 'right' },
          { title: t('dashboard.oldest'), dataIndex: 'oldestAt', render: (at: string | null) => ageText(at) },
          {
            title: t('dashboard.sla'),
            dataIndex: 'slaHours',
            render: (hours: number | null) => (hours === null ? '—' : t('common.hours', { count: hours })),
          },
          {
            title: t('dashboard.state'),
            key: 'state',
            render: (_, row) =>
              row.isOverdue ? (
                <Tag color="red">{t('dashboard.overdue')}</Tag>
              ) : (
                <Tag color="green">{t('dashboard.onTime')}</Tag>
              ),
          },
        ]}
      />
    </Card>
  );
}

/** Today's flows per kind and asset: count and amount (decimal strings as the API sends them). */
export function TodayCard({ today }: { today: Dashboard['today'] }) {
  const { t } = useTranslation('admin');
  return (
    <Card title={t('dashboard.today')}>
      <Table
        rowKey={(row) => `${row.kind}-${row.asset}`}
        size="small"
        pagination={false}
        dataSource={today}
        columns={[
          { title: t('dashboard.flow'), dataIndex: 'kind', render: (kind: string) => t(`flows.${kind}`) },
          { title: t('common.asset'), dataIndex: 'asset' },
          { title: t('dashboard.count'), dataIndex: 'count', align: 'right' },
          { title: t('common.amount'), dataIndex: 'amount', align: 'right' },
        ]}
      />
    </Card>
  );
}

/** The users' balances against the holdings per asset, a shortfall in red. */
export function LiabilitiesCard({ liabilities }: { liabilities: Dashboard['liabilities'] }) {
  const { t } = useTranslation('admin');
  return (
    <Card title={t('dashboard.liabilities')}>
      <Table
        rowKey="asset"
        size="small"
        pagination={false}
        dataSource={liabilities}
        columns={[
          { title: t('common.asset'), dataIndex: 'asset' },
          { title: t('dashboard.userBalances'), dataIndex: 'liabilities', align: 'right' },
          { title: t('dashboard.holdings'), dataIndex: 'holdings', align: 'right' },
          {
            title: t('dashboard.state'),
            key: 'state',
            render: (_, row) =>
              isShortfall(row.liabilities, row.holdings) ? (
                <Tag color="red">{t('dashboard.shortfall')}</Tag>
              ) : (
                <Tag color="green">{t('dashboard.covered')}</Tag>
              ),
          },
        ]}
      />
    </Card>
  );
}
