import { OPS_DEPOSIT_STATUSES, type OpsDeposit, type OpsDepositStatus } from '@meridian/contracts/back-office';
import { ASSET_CODES, type AssetCode } from '@meridian/contracts/money';
import { Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useDeposits } from '../api/list-deposits.ts';
import { StatusFilter } from '../components/status-filter.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { QueryError } from '../components/query-error.tsx';
import { ADMIN_PATHS, adminUserPath } from '../lib/admin-paths.ts';
import { formatDateTime } from '../lib/time.ts';
import { usePaging } from '../lib/use-paging.ts';

const ALL = 'all';
const STATUS_COLORS: Record<OpsDepositStatus, string> = { pending: 'gold', credited: 'green', frozen: 'red' };

/**
 * `/admin/deposits`: pending, credited and frozen deposits, newest first, by
 * status and coin, paged by the server. A frozen deposit (its source on a sanctions list) links to
 * the screening alerts, where compliance releases or confirms it.
 */
export function DepositsPage() {
  const { t, i18n } = useTranslation('admin');
  const [status, setStatus] = useState<OpsDepositStatus | typeof ALL>(ALL);
  const [coin, setCoin] = useState<AssetCode | typeof ALL>(ALL);
  const paging = usePaging();
  const deposits = useDeposits({
    pageID: paging.pageID,
    pageSize: paging.pageSize,
    ...(status !== ALL && { status }),
    ...(coin !== ALL && { coin }),
  });

  return (
    <>
      <PageTitle>{t('deposits.title')}</PageTitle>
      <Space style={{ marginBottom: 16 }} wrap>
        <StatusFilter
          value={status}
          statuses={OPS_DEPOSIT_STATUSES}
          all={ALL}
          labelOf={(value) => t(`deposits.status.${value}`)}
          onChange={(value) => {
            setStatus(value);
            paging.reset();
          }}
        />
        <Select
          aria-label={t('common.asset')}
          style={{ width: 160 }}
          value={coin}
          onChange={(value) => {
            setCoin(value);
            paging.reset();
          }}
          options={[{ value: ALL, label: t('common.all') }, ...ASSET_CODES.map((value) => ({ value, label: value }))]}
        />
      </Space>
      {deposits.isError && <QueryError error={deposits.error} onRetry={() => void deposits.refetch()} />}
      <Table<OpsDeposit>
        rowKey="id"
        loading={deposits.isFetching}
        dataSource={deposits.data?.list}
        pagination={paging.pagination(deposits.data?.totalCount)}
        scroll={{ x: 1400 }}
        columns={[
          {
            title: t('common.time'),
            dataIndex: 'createdAt',
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
            title: t('common.asset'),
            dataIndex: 'coinCode',
            render: (code: string, row) => `${code} (${row.network})`,
          },
          { title: t('common.amount'), dataIndex: 'amount', align: 'right' },
          {
            title: t('deposits.txHash'),
            dataIndex: 'txHash',
            width: 180,
            ellipsis: true,
            render: (hash: string | null) =>
              hash ? <Typography.Text copyable={{ text: hash }}>{hash}</Typography.Text> : t('deposits.internal'),
          },
          {
            title: t('deposits.fromAddress'),
            dataIndex: 'fromAddress',
            width: 180,
            ellipsis: true,
            render: (address: string | null) => address ?? '—',
          },
          { title: t('deposits.confirmations'), dataIndex: 'confirmations', align: 'right' },
          {
            title: t('common.status'),
            dataIndex: 'status',
            render: (value: OpsDepositStatus) => (
              <Space orientation="vertical" size={2}>
                <Tag color={STATUS_COLORS[value]}>{t(`deposits.status.${value}`)}</Tag>
                {value === 'frozen' && <Link to={ADMIN_PATHS.screening}>{t('deposits.toScreening')}</Link>}
              </Space>
            ),
          },
          {
            title: t('deposits.creditedAt'),
            dataIndex: 'creditedAt',
            render: (at: string | null) => (at ? formatDateTime(at, i18n.language) : '—'),
          },
        ]}
      />
    </>
  );
}
