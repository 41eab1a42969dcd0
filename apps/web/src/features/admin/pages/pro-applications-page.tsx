import {
  type OpsProApplication,
  opsCorporateEndpoints,
  PRO_APPLICATION_STATUSES,
  type ProApplicationStatus,
} from '@meridian/contracts/corporate';
import { Button, Input, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { proApplicationsCsvHref, useDecideProApplication, useProApplications } from '../api/pro-applications.ts';
import { useMayCall } from '../components/operator-context.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { QueryError } from '../components/query-error.tsx';
import { ReasonModal } from '../components/reason-modal.tsx';
import { StatusFilter } from '../components/status-filter.tsx';
import { adminUserPath } from '../lib/admin-paths.ts';
import { formatDateTime } from '../lib/time.ts';
import { usePaging } from '../lib/use-paging.ts';

const ALL = 'all';
const STATUS_COLORS: Record<ProApplicationStatus, string> = { SUBMITTED: 'gold', APPROVED: 'green', REJECTED: 'red' };

/** The decision being made: which application, approve or reject. */
interface Deciding {
  application: OpsProApplication;
  isApproved: boolean;
}

/**
 * `/admin/pro-applications` (a PRO account application goes to an account manager in
 * the back office, who answers it with a status and a reply; docs/back-office.md "PRO account
 * applications"): the queue with server paging, a status filter and a search (company, registration no.,
 * contact e-mail, user id), the CSV of the filtered list, and — for compliance — Approve / Reject,
 * each asking for the reply the user receives as a message. Every decision is audited.
 */
export function ProApplicationsPage() {
  const { t, i18n } = useTranslation('admin');
  const [status, setStatus] = useState<ProApplicationStatus | typeof ALL>('SUBMITTED');
  const [search, setSearch] = useState('');
  const paging = usePaging();
  const filters = { ...(status !== ALL && { status }), ...(search.trim() !== '' && { q: search.trim() }) };
  const list = useProApplications({ pageID: paging.pageID, pageSize: paging.pageSize, ...filters });
  const mayDecide = useMayCall(opsCorporateEndpoints.decideProApplication);
  const decide = useDecideProApplication();
  const [deciding, setDeciding] = useState<Deciding | null>(null);

  return (
    <>
      <PageTitle
        extra={
          <Button href={proApplicationsCsvHref(filters)} download data-testid="pro-csv">
            {t('audit.exportCsv')}
          </Button>
        }
      >
        {t('pro.title')}
      </PageTitle>
      <ProFilters
        status={status}
        onStatus={(value) => {
          setStatus(value);
          paging.reset();
        }}
        onSearch={(value) => {
          setSearch(value);
          paging.reset();
        }}
      />
      {list.isError && <QueryError error={list.error} onRetry={() => void list.refetch()} />}
      <Table<OpsProApplication>
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data?.list}
        pagination={paging.pagination(list.data?.totalCount)}
        scroll={{ x: 1300 }}
        data-testid="pro-table"
        columns={[
          {
            title: t('common.time'),
            dataIndex: 'createdAt',
            width: 150,
            render: (at: string) => formatDateTime(at, i18n.language),
          },
          {
            title: t('common.user'),
            dataIndex: 'userId',
            width: 200,
            ellipsis: true,
            render: (userId: string, row) => <Link to={adminUserPath(userId)}>{row.userEmail ?? userId}</Link>,
          },
          {
            title: t('pro.company'),
            dataIndex: 'companyName',
            render: (name: string, row) => (
              <Space orientation="vertical" size={0}>
                <strong>{name}</strong>
                <span>{t('pro.registrationNumber', { number: row.registrationNumber })}</span>
              </Space>
            ),
          },
          {
            title: t('pro.spend'),
            key: 'spend',
            render: (_, row) => (
              <Space orientation="vertical" size={0}>
                <span>{`${row.expectedMonthlySpend} ${row.currency}`}</span>
                <span>{t('pro.cardCount', { count: row.cardCount })}</span>
              </Space>
            ),
          },
          {
            title: t('pro.contact'),
            key: 'contact',
            render: (_, row) => (
              <Space orientation="vertical" size={0}>
                <span>{row.contactName}</span>
                <span>{row.contactEmail}</span>
                <span>{row.contactPhone}</span>
              </Space>
            ),
          },
          {
            title: t('common.status'),
            dataIndex: 'status',
            width: 240,
            render: (value: ProApplicationStatus, row) => (
              <Space orientation="vertical" size={2}>
                <Tag color={STATUS_COLORS[value]}>{t(`pro.status.${value}`)}</Tag>
                {row.reply && <span>{t('cards.replied', { reply: row.reply })}</span>}
                {row.decidedBy && row.decidedAt && (
                  <span>
                    {t('cards.decidedBy', { who: row.decidedBy, at: formatDateTime(row.decidedAt, i18n.language) })}
                  </span>
                )}
              </Space>
            ),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            fixed: 'right',
            render: (_, row) =>
              row.status === 'SUBMITTED' &&
              mayDecide && (
                <Space wrap>
                  <Button
                    size="small"
                    type="primary"
                    onClick={() => setDeciding({ application: row, isApproved: true })}
                    data-testid="pro-approve"
                  >
                    {t('cards.approve')}
                  </Button>
                  <Button
                    size="small"
                    danger
                    onClick={() => setDeciding({ application: row, isApproved: false })}
                    data-testid="pro-reject"
                  >
                    {t('cards.reject')}
                  </Button>
                </Space>
              ),
          },
        ]}
      />
      <ReasonModal
        open={deciding !== null}
        title={
          deciding
            ? t(deciding.isApproved ? 'pro.approveTitle' : 'pro.rejectTitle', {
                company: deciding.application.companyName,
              })
            : ''
        }
        okText={deciding?.isApproved ? t('cards.approve') : t('cards.reject')}
        label={t('pro.reply')}
        isDanger={deciding?.isApproved === false}
        isPending={decide.isPending}
        onCancel={() => setDeciding(null)}
        onSubmit={async (reply) => {
          if (deciding)
            await decide.mutateAsync({ id: deciding.application.id, isApproved: deciding.isApproved, reply });
          setDeciding(null);
        }}
      />
    </>
  );
}

/** The applications' filters: a status (or all) and a search on company, user or contact. */
function ProFilters({
  status,
  onStatus,
  onSearch,
}: {
  status: ProApplicationStatus | typeof ALL;
  onStatus: (status: ProApplicationStatus | typeof ALL) => void;
  onSearch: (text: string) => void;
}) {
  const { t } = useTranslation('admin');
  return (
    <Space wrap style={{ marginBottom: 16 }}>
      <StatusFilter
        value={status}
        statuses={PRO_APPLICATION_STATUSES}
        all={ALL}
        labelOf={(value) => t(`pro.status.${value}`)}
        onChange={onStatus}
      />
      <Input.Search
        allowClear
        aria-label={t('pro.search')}
        placeholder={t('pro.search')}
        style={{ width: 280 }}
        onSearch={onSearch}
        data-testid="pro-search"
      />
    </Space>
  );
}
