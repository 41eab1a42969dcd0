import { KYC_REVIEW_STEPS, KYC_STATUS, type KycReviewStep, type OpsKycQueueItem } from '@meridian/contracts/kyc';
import { Select, Space, Table } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useKycQueue } from '../api/list-kyc-queue.ts';
import { PageTitle } from '../components/page-title.tsx';
import { QueryError } from '../components/query-error.tsx';
import { SlaTimer } from '../components/sla-timer.tsx';
import { adminKycReviewPath } from '../lib/admin-paths.ts';
import { formatDateTime } from '../lib/time.ts';
import { usePaging } from '../lib/use-paging.ts';

const ALL = 'all';
const STATUSES = Object.values(KYC_STATUS);

/** `/admin/kyc`: the verification queue, filtered by step and status, oldest submission first. */
export function KycQueuePage() {
  const { t, i18n } = useTranslation('admin');
  const [step, setStep] = useState<KycReviewStep | typeof ALL>(ALL);
  const [status, setStatus] = useState<number>(KYC_STATUS.UNDER_REVIEW);
  const paging = usePaging();
  const queue = useKycQueue({
    pageID: paging.pageID,
    pageSize: paging.pageSize,
    status,
    ...(step !== ALL && { step }),
  });

  return (
    <>
      <PageTitle>{t('kyc.title')}</PageTitle>
      <Space style={{ marginBottom: 16 }} wrap>
        <Select
          aria-label={t('kyc.step')}
          style={{ width: 220 }}
          value={step}
          onChange={(value) => {
            setStep(value);
            paging.reset();
          }}
          options={[
            { value: ALL, label: t('kyc.allSteps') },
            ...KYC_REVIEW_STEPS.map((value) => ({ value, label: t(`steps.${value}`) })),
          ]}
        />
        <Select
          aria-label={t('common.status')}
          style={{ width: 220 }}
          value={status}
          onChange={(value) => {
            setStatus(value);
            paging.reset();
          }}
          options={STATUSES.map((value) => ({ value, label: t(`kycStatus.${value}`) }))}
        />
      </Space>
      {queue.isError && <QueryError error={queue.error} onRetry={() => void queue.refetch()} />}
      <Table<OpsKycQueueItem>
        rowKey={(row) => `${row.userId}-${row.step}`}
        loading={queue.isFetching}
        dataSource={queue.data?.list}
        pagination={paging.pagination(queue.data?.totalCount)}
        columns={[
          { title: t('users.email'), dataIndex: 'email', render: (email: string | null, row) => email ?? row.userId },
          { title: t('kyc.step'), dataIndex: 'step', render: (value: KycReviewStep) => t(`steps.${value}`) },
          {
            title: t('common.status'),
            dataIndex: 'status',
            render: (value: number) => t(`kycStatus.${value}`, { defaultValue: String(value) }),
          },
          {
            title: t('kyc.submittedAt'),
            dataIndex: 'submittedAt',
            render: (at: string | null) => formatDateTime(at, i18n.language),
          },
          {
            title: t('kyc.sla'),
            key: 'sla',
            render: (_, row) => <SlaTimer submittedAt={row.submittedAt} dueAt={row.expectedDecisionAt} />,
          },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, row) => <Link to={adminKycReviewPath(row.userId, row.step)}>{t('kyc.review')}</Link>,
          },
        ]}
      />
    </>
  );
}
