import { Input, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSearchUsers } from '../api/search-users.ts';
import { PageTitle } from '../components/page-title.tsx';
import { QueryError } from '../components/query-error.tsx';
import { adminUserPath } from '../lib/admin-paths.ts';
import { formatDateTime } from '../lib/time.ts';
import { usePaging } from '../lib/use-paging.ts';

/** `/admin/users`: search by email, uid, name or phone; each row opens the user's page. */
export function UsersPage() {
  const { t, i18n } = useTranslation('admin');
  const [q, setQ] = useState('');
  const paging = usePaging();
  const users = useSearchUsers({ q: q || undefined, pageID: paging.pageID, pageSize: paging.pageSize });

  return (
    <>
      <PageTitle>{t('users.title')}</PageTitle>
      <Input.Search
        aria-label={t('users.search')}
        placeholder={t('users.searchPlaceholder')}
        enterButton={t('users.searchButton')}
        allowClear
        maxLength={200}
        style={{ maxWidth: 520, marginBottom: 16 }}
        onSearch={(value) => {
          setQ(value.trim());
          paging.reset();
        }}
      />
      {users.isError && <QueryError error={users.error} onRetry={() => void users.refetch()} />}
      <Table
        rowKey="userId"
        loading={users.isFetching}
        dataSource={users.data?.list}
        pagination={paging.pagination(users.data?.totalCount)}
        columns={[
          {
            title: t('users.email'),
            dataIndex: 'email',
            render: (email: string, row) => <Link to={adminUserPath(row.userId)}>{email}</Link>,
          },
          { title: t('users.userId'), dataIndex: 'userId' },
          { title: t('users.name'), dataIndex: 'name', render: (name: string | null) => name ?? '—' },
          { title: t('users.phone'), dataIndex: 'phone', render: (phone: string | null) => phone ?? '—' },
          { title: t('users.kycLevel'), dataIndex: 'kycLevel', align: 'right' },
          {
            title: t('users.state'),
            dataIndex: 'isFrozen',
            render: (isFrozen: boolean) =>
              isFrozen ? <Tag color="red">{t('users.frozen')}</Tag> : <Tag color="green">{t('users.active')}</Tag>,
          },
          {
            title: t('users.createdAt'),
            dataIndex: 'createdAt',
            render: (at: string) => formatDateTime(at, i18n.language),
          },
        ]}
      />
    </>
  );
}
