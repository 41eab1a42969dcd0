import type { Dashboard } from '@meridian/contracts/back-office';
import { Alert, Button, Card, Col, Row, Space, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDashboard } from '../api/get-dashboard.ts';
import { AdminSpinner } from '../components/admin-spinner.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { QueryError } from '../components/query-error.tsx';
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

/**
 * `/admin`: each review queue's size and oldest item against its SLA (overdue in red), today's
 * flows, the ledger check and liabilities against holdings.
 */
export function DashboardPage() {
  const { t, i18n } = useTranslation('admin');
  const dashboard = useDashboard();
  const ageText = useAgeText();

  if (dashboard.isPending) return <AdminSpinner />;
  if (dashboard.isError) return <QueryError error={dashboard.error} onRetry={() => void dashboard.refetch()} />;
  const { queues, today, ledgerCheck, liabilities } = dashboard.data;

  return (
    <>
      <PageTitle
        extra={
          <Space>
            <Typography.Text type="secondary">
              {t('dashboard.loadedAt', {
                at: formatDateTime(new Date(dashboard.dataUpdatedAt).toISOString(), i18n.language),
              })}
            </Typography.Text>
            <Button onClick={() => void dashboard.refetch()} loading={dashboard.isFetching}>
              {t('dashboard.refresh')}
            </Button>
          </Space>
        }
      >
        {t('dashboard.title')}
      </PageTitle>
      <Row gutter={[16, 16]}>
        <Col span={24}>
          {ledgerCheck.isOk ? (
            <Alert
              type="success"
              showIcon
              title={t('dashboard.ledgerOk')}
              description={t('dashboard.checkedAt', { at: formatDateTime(ledgerCheck.checkedAt, i18n.language) })}
            />
          ) : (
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
                  {t('dashboard.checkedAt', { at: formatDateTime(ledgerCheck.checkedAt, i18n.language) })}
                </>
              }
            />
          )}
        </Col>
        <Col xs={24} xl={12}>
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
        </Col>
        <Col xs={24} xl={12}>
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
        </Col>
        <Col span={24}>
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
        </Col>
      </Row>
    </>
  );
}
