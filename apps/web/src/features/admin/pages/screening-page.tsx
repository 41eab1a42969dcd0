import {
  SCREENING_ALERT_STATUSES,
  type ScreeningAlert,
  type ScreeningAlertStatus,
  opsWalletEndpoints,
} from '@meridian/contracts/wallet';
import { Button, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useConfirmScreeningAlert, useReleaseScreeningAlert } from '../api/decide-screening-alert.ts';
import { useScreeningAlerts } from '../api/list-screening-alerts.ts';
import { useMayCall } from '../components/operator-context.tsx';
import { StatusFilter } from '../components/status-filter.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { QueryError } from '../components/query-error.tsx';
import { ReasonModal } from '../components/reason-modal.tsx';
import { adminUserPath } from '../lib/admin-paths.ts';
import { formatDateTime } from '../lib/time.ts';
import { usePaging } from '../lib/use-paging.ts';

const ALL = 'all';
const STATUS_COLORS: Record<ScreeningAlertStatus, string> = { open: 'gold', released: 'green', confirmed: 'red' };

/**
 * `/admin/screening`: sanctions-list hits on deposits, withdrawals and address-book entries;
 * release (a frozen deposit is credited, optional note) or confirm (the hit stands, note required).
 */
export function ScreeningPage() {
  const { t, i18n } = useTranslation('admin');
  const [status, setStatus] = useState<ScreeningAlertStatus | typeof ALL>('open');
  const paging = usePaging();
  const alerts = useScreeningAlerts({
    pageID: paging.pageID,
    pageSize: paging.pageSize,
    ...(status !== ALL && { status }),
  });
  const release = useReleaseScreeningAlert();
  const confirm = useConfirmScreeningAlert();
  const mayRelease = useMayCall(opsWalletEndpoints.releaseScreeningAlert);
  const mayConfirm = useMayCall(opsWalletEndpoints.confirmScreeningAlert);
  const [deciding, setDeciding] = useState<{ id: string; action: 'release' | 'confirm' } | null>(null);
  const mutation = deciding?.action === 'confirm' ? confirm : release;

  return (
    <>
      <PageTitle>{t('screening.title')}</PageTitle>
      <Space style={{ marginBottom: 16 }}>
        <StatusFilter
          value={status}
          statuses={SCREENING_ALERT_STATUSES}
          all={ALL}
          labelOf={(value) => t(`screening.status.${value}`)}
          onChange={(value) => {
            setStatus(value);
            paging.reset();
          }}
        />
      </Space>
      {alerts.isError && <QueryError error={alerts.error} onRetry={() => void alerts.refetch()} />}
      <Table<ScreeningAlert>
        rowKey="id"
        loading={alerts.isFetching}
        dataSource={alerts.data?.list}
        pagination={paging.pagination(alerts.data?.totalCount)}
        scroll={{ x: 1100 }}
        columns={[
          {
            title: t('common.time'),
            dataIndex: 'createdAt',
            render: (at: string) => formatDateTime(at, i18n.language),
          },
          {
            title: t('common.user'),
            dataIndex: 'userId',
            width: 140,
            ellipsis: true,
            render: (userId: string) => <Link to={adminUserPath(userId)}>{userId}</Link>,
          },
          { title: t('screening.kind'), dataIndex: 'kind', render: (kind: string) => t(`screening.kinds.${kind}`) },
          { title: t('screening.network'), dataIndex: 'network' },
          { title: t('withdrawals.address'), dataIndex: 'address', ellipsis: true },
          { title: t('screening.list'), dataIndex: 'listName' },
          { title: t('screening.reference'), dataIndex: 'referenceId', render: (id: string | null) => id ?? '—' },
          {
            title: t('common.status'),
            dataIndex: 'status',
            render: (value: ScreeningAlertStatus, row) => (
              <Space orientation="vertical" size={2}>
                <Tag color={STATUS_COLORS[value]}>{t(`screening.status.${value}`)}</Tag>
                {row.decidedBy && <span>{`${row.decidedBy} · ${formatDateTime(row.decidedAt, i18n.language)}`}</span>}
                {row.note && <span>{row.note}</span>}
              </Space>
            ),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            fixed: 'right',
            render: (_, row) =>
              row.status === 'open' && (
                <Space>
                  {mayRelease && (
                    <Button size="small" onClick={() => setDeciding({ id: row.id, action: 'release' })}>
                      {t('screening.release')}
                    </Button>
                  )}
                  {mayConfirm && (
                    <Button size="small" danger onClick={() => setDeciding({ id: row.id, action: 'confirm' })}>
                      {t('screening.confirm')}
                    </Button>
                  )}
                </Space>
              ),
          },
        ]}
      />
      <ReasonModal
        open={deciding !== null}
        title={deciding ? t(`screening.${deciding.action}Title`) : ''}
        okText={deciding ? t(`screening.${deciding.action}`) : ''}
        label={t('screening.note')}
        isOptional={deciding?.action === 'release'}
        isDanger={deciding?.action === 'confirm'}
        isPending={mutation.isPending}
        onCancel={() => setDeciding(null)}
        onSubmit={async (note) => {
          if (deciding) await mutation.mutateAsync({ id: deciding.id, note });
          setDeciding(null);
        }}
      />
    </>
  );
}
