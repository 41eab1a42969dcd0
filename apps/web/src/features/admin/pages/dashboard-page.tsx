import { Button, Col, Row, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useDashboard } from '../api/get-dashboard.ts';
import { AdminSpinner } from '../components/admin-spinner.tsx';
import { LedgerCheckAlert, LiabilitiesCard, QueuesCard, TodayCard } from '../components/dashboard-cards.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { QueryError } from '../components/query-error.tsx';
import { formatDateTime } from '../lib/time.ts';

/**
 * `/admin`: each review queue's size and oldest item against its SLA (overdue in red), today's
 * flows, the ledger check and liabilities against holdings.
 */
export function DashboardPage() {
  const { t, i18n } = useTranslation('admin');
  const dashboard = useDashboard();

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
          <LedgerCheckAlert ledgerCheck={ledgerCheck} />
        </Col>
        <Col xs={24} xl={12}>
          <QueuesCard queues={queues} />
        </Col>
        <Col xs={24} xl={12}>
          <TodayCard today={today} />
        </Col>
        <Col span={24}>
          <LiabilitiesCard liabilities={liabilities} />
        </Col>
      </Row>
    </>
  );
}
