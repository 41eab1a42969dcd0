import type { UserDetail } from '@meridian/contracts/back-office';
import { Card, List, Table } from 'antd';
import { useTranslation } from 'react-i18next';
import { valueLabel } from '../lib/labels.ts';
import { formatDateTime } from '../lib/time.ts';

/** The translator and a date-time formatter in the operator's language, for the user page's cards. */
function useUserPageText() {
  const { t, i18n } = useTranslation('admin');
  return { t, language: i18n.language, at: (iso: string | null) => formatDateTime(iso, i18n.language) };
}

/** The user's verification steps with their status and decision time. */
export function UserVerification({ user }: { user: UserDetail }) {
  const { t, language, at } = useUserPageText();
  return (
    <Card title={t('user.verification')} style={{ marginBottom: 16 }}>
      <Table
        rowKey="step"
        size="small"
        pagination={false}
        dataSource={user.verification}
        columns={[
          {
            title: t('kyc.step'),
            dataIndex: 'step',
            render: (step: string) => t(`steps.${step}`, { defaultValue: step }),
          },
          {
            title: t('common.status'),
            dataIndex: 'status',
            render: (status: string) => valueLabel(t, language, 'verificationStatus', status),
          },
          { title: t('user.decidedAt'), dataIndex: 'decidedAt', render: at },
        ]}
      />
    </Card>
  );
}

/** The user's balances per asset: available and frozen (decimal strings as the API sends them). */
export function UserBalances({ user }: { user: UserDetail }) {
  const { t } = useTranslation('admin');
  return (
    <Card title={t('user.balances')}>
      <Table
        rowKey="asset"
        size="small"
        pagination={false}
        dataSource={user.balances}
        columns={[
          { title: t('common.asset'), dataIndex: 'asset' },
          { title: t('user.available'), dataIndex: 'available', align: 'right' },
          { title: t('user.frozenAmount'), dataIndex: 'frozen', align: 'right' },
        ]}
      />
    </Card>
  );
}

/** The user's history across modules, ten rows a page. */
export function UserHistory({ user }: { user: UserDetail }) {
  const { t, language, at } = useUserPageText();
  return (
    <Card title={t('user.history')}>
      <Table
        rowKey={(row) => `${row.at}-${row.module}-${row.kind}-${row.asset}-${row.amount}`}
        size="small"
        pagination={{ pageSize: 10 }}
        dataSource={user.history}
        columns={[
          { title: t('common.time'), dataIndex: 'at', render: at },
          {
            title: t('user.module'),
            dataIndex: 'module',
            render: (name: string) => valueLabel(t, language, 'module', name),
          },
          {
            title: t('user.kind'),
            dataIndex: 'kind',
            render: (kind: string) => valueLabel(t, language, 'historyKind', kind),
          },
          { title: t('common.asset'), dataIndex: 'asset' },
          { title: t('common.amount'), dataIndex: 'amount', align: 'right' },
          {
            title: t('common.status'),
            dataIndex: 'status',
            render: (status: string) => valueLabel(t, language, 'historyStatus', status),
          },
        ]}
      />
    </Card>
  );
}

/** The user's sessions: signed in, last seen and IP. */
export function UserSessions({ user }: { user: UserDetail }) {
  const { t, at } = useUserPageText();
  return (
    <Card title={t('user.sessions')} style={{ marginBottom: 16 }}>
      <Table
        rowKey="id"
        size="small"
        pagination={false}
        dataSource={user.sessions}
        columns={[
          { title: t('user.signedInAt'), dataIndex: 'createdAt', render: at },
          { title: t('user.lastSeenAt'), dataIndex: 'lastSeenAt', render: at },
          { title: t('common.ip'), dataIndex: 'ip', render: (ip: string | null) => ip ?? '—' },
        ]}
      />
    </Card>
  );
}

/** The messages sent to the user: title and time. */
export function UserMessages({ user }: { user: UserDetail }) {
  const { t, at } = useUserPageText();
  return (
    <Card title={t('user.messages')}>
      <List
        size="small"
        dataSource={user.messages}
        locale={{ emptyText: t('common.none') }}
        renderItem={(message) => (
          <List.Item>
            <span>{message.title}</span>
            <span>{at(message.at)}</span>
          </List.Item>
        )}
      />
    </Card>
  );
}
