import { backOfficeUserEndpoints, type UserDetail } from '@meridian/contracts/back-office';
import { Alert, Button, Card, Col, Descriptions, Form, Input, List, Row, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useAddUserNote } from '../api/add-user-note.ts';
import { useFreezeUser } from '../api/freeze-user.ts';
import { useResetUserTotp } from '../api/reset-user-totp.ts';
import { useUser } from '../api/show-user.ts';
import { useUnfreezeUser } from '../api/unfreeze-user.ts';
import { AdminSpinner } from '../components/admin-spinner.tsx';
import { useMayCall } from '../components/operator-context.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { QueryError } from '../components/query-error.tsx';
import { ReasonModal } from '../components/reason-modal.tsx';
import { valueLabel } from '../lib/labels.ts';
import { formatDateTime } from '../lib/time.ts';

type UserAction = 'freeze' | 'unfreeze' | 'resetTotp';

/** The account actions (freeze, unfreeze, reset 2FA), each behind a reason modal, shown by role. */
function UserActions({ user }: { user: UserDetail }) {
  const { t } = useTranslation('admin');
  const [action, setAction] = useState<UserAction | null>(null);
  const freeze = useFreezeUser();
  const unfreeze = useUnfreezeUser();
  const resetTotp = useResetUserTotp();
  const mayFreeze = useMayCall(backOfficeUserEndpoints.freezeUser);
  const mayUnfreeze = useMayCall(backOfficeUserEndpoints.unfreezeUser);
  const mayResetTotp = useMayCall(backOfficeUserEndpoints.resetUserTotp);
  const mutation = { freeze, unfreeze, resetTotp }[action ?? 'freeze'];

  return (
    <Space>
      {mayFreeze && !user.isFrozen && (
        <Button danger onClick={() => setAction('freeze')}>
          {t('user.freeze')}
        </Button>
      )}
      {mayUnfreeze && user.isFrozen && <Button onClick={() => setAction('unfreeze')}>{t('user.unfreeze')}</Button>}
      {mayResetTotp && user.hasTotp && <Button onClick={() => setAction('resetTotp')}>{t('user.resetTotp')}</Button>}
      <ReasonModal
        open={action !== null}
        title={action ? t(`user.${action}Title`) : ''}
        okText={action ? t(`user.${action}`) : ''}
        isDanger={action === 'freeze'}
        isPending={mutation.isPending}
        onCancel={() => setAction(null)}
        onSubmit={async (reason) => {
          await mutation.mutateAsync({ userId: user.userId, reason });
          setAction(null);
        }}
      />
    </Space>
  );
}

/** The operators' notes on the user and the form to add one. */
function UserNotes({ user }: { user: UserDetail }) {
  const { t, i18n } = useTranslation('admin');
  const [form] = Form.useForm<{ text: string }>();
  const addNote = useAddUserNote();
  const mayAddNote = useMayCall(backOfficeUserEndpoints.addUserNote);
  return (
    <Card title={t('user.notes')}>
      <List
        dataSource={user.notes}
        locale={{ emptyText: t('common.none') }}
        renderItem={(note) => (
          <List.Item>
            <List.Item.Meta
              title={`${note.operatorEmail} · ${formatDateTime(note.at, i18n.language)}`}
              description={note.text}
            />
          </List.Item>
        )}
      />
      {mayAddNote && (
        <Form
          form={form}
          layout="vertical"
          onFinish={async ({ text }) => {
            try {
              await addNote.mutateAsync({ userId: user.userId, text: text.trim() });
              form.resetFields();
            } catch {
              // Shown by the HTTP client.
            }
          }}
        >
          <Form.Item
            name="text"
            label={t('user.note')}
            rules={[{ required: true, whitespace: true, message: t('common.required') }]}
          >
            <Input.TextArea rows={3} maxLength={2000} showCount />
          </Form.Item>
          <Button htmlType="submit" loading={addNote.isPending}>
            {t('user.addNote')}
          </Button>
        </Form>
      )}
    </Card>
  );
}

/**
 * `/admin/users/:userId`: profile, verification, balances, sessions, history, messages and notes,
 * with the account actions the operator's role allows.
 */
export function UserPage() {
  const { t, i18n } = useTranslation('admin');
  const { userId = '' } = useParams();
  const user = useUser(userId);
  const at = (iso: string | null) => formatDateTime(iso, i18n.language);

  if (user.isPending) return <AdminSpinner />;
  if (user.isError) return <QueryError error={user.error} onRetry={() => void user.refetch()} />;
  const data = user.data;

  return (
    <>
      <PageTitle extra={<UserActions user={data} />}>{data.email}</PageTitle>
      {data.isFrozen && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('user.frozenBanner', { at: at(data.frozenAt) })}
          description={data.frozenReason}
        />
      )}
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={12}>
          <Card title={t('user.profile')}>
            <Descriptions column={1} size="small">
              <Descriptions.Item label={t('users.userId')}>{data.userId}</Descriptions.Item>
              <Descriptions.Item label={t('users.email')}>{data.email}</Descriptions.Item>
              <Descriptions.Item label={t('users.name')}>{data.name ?? '—'}</Descriptions.Item>
              <Descriptions.Item label={t('users.phone')}>{data.phone ?? '—'}</Descriptions.Item>
              <Descriptions.Item label={t('users.kycLevel')}>{data.kycLevel}</Descriptions.Item>
              <Descriptions.Item label={t('users.createdAt')}>{at(data.createdAt)}</Descriptions.Item>
              <Descriptions.Item label={t('user.totp')}>
                {data.hasTotp ? t('common.yes') : t('common.no')}
              </Descriptions.Item>
              <Descriptions.Item label={t('user.withdrawHold')}>{at(data.withdrawHoldUntil)}</Descriptions.Item>
              <Descriptions.Item label={t('users.state')}>
                {data.isFrozen ? (
                  <Tag color="red">{t('users.frozen')}</Tag>
                ) : (
                  <Tag color="green">{t('users.active')}</Tag>
                )}
              </Descriptions.Item>
            </Descriptions>
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card title={t('user.verification')} style={{ marginBottom: 16 }}>
            <Table
              rowKey="step"
              size="small"
              pagination={false}
              dataSource={data.verification}
              columns={[
                {
                  title: t('kyc.step'),
                  dataIndex: 'step',
                  render: (step: string) => t(`steps.${step}`, { defaultValue: step }),
                },
                {
                  title: t('common.status'),
                  dataIndex: 'status',
                  render: (status: string) => valueLabel(t, i18n.language, 'verificationStatus', status),
                },
                { title: t('user.decidedAt'), dataIndex: 'decidedAt', render: at },
              ]}
            />
          </Card>
          <Card title={t('user.balances')}>
            <Table
              rowKey="asset"
              size="small"
              pagination={false}
              dataSource={data.balances}
              columns={[
                { title: t('common.asset'), dataIndex: 'asset' },
                { title: t('user.available'), dataIndex: 'available', align: 'right' },
                { title: t('user.frozenAmount'), dataIndex: 'frozen', align: 'right' },
              ]}
            />
          </Card>
        </Col>
        <Col span={24}>
          <Card title={t('user.history')}>
            <Table
              rowKey={(row) => `${row.at}-${row.module}-${row.kind}-${row.asset}-${row.amount}`}
              size="small"
              pagination={{ pageSize: 10 }}
              dataSource={data.history}
              columns={[
                { title: t('common.time'), dataIndex: 'at', render: at },
                {
                  title: t('user.module'),
                  dataIndex: 'module',
                  render: (name: string) => valueLabel(t, i18n.language, 'module', name),
                },
                {
                  title: t('user.kind'),
                  dataIndex: 'kind',
                  render: (kind: string) => valueLabel(t, i18n.language, 'historyKind', kind),
                },
                { title: t('common.asset'), dataIndex: 'asset' },
                { title: t('common.amount'), dataIndex: 'amount', align: 'right' },
                {
                  title: t('common.status'),
                  dataIndex: 'status',
                  render: (status: string) => valueLabel(t, i18n.language, 'historyStatus', status),
                },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <Card title={t('user.sessions')} style={{ marginBottom: 16 }}>
            <Table
              rowKey="id"
              size="small"
              pagination={false}
              dataSource={data.sessions}
              columns={[
                { title: t('user.signedInAt'), dataIndex: 'createdAt', render: at },
                { title: t('user.lastSeenAt'), dataIndex: 'lastSeenAt', render: at },
                { title: t('common.ip'), dataIndex: 'ip', render: (ip: string | null) => ip ?? '—' },
              ]}
            />
          </Card>
          <Card title={t('user.messages')}>
            <List
              size="small"
              dataSource={data.messages}
              locale={{ emptyText: t('common.none') }}
              renderItem={(message) => (
                <List.Item>
                  <span>{message.title}</span>
                  <span>{at(message.at)}</span>
                </List.Item>
              )}
            />
          </Card>
        </Col>
        <Col xs={24} xl={12}>
          <UserNotes user={data} />
        </Col>
      </Row>
    </>
  );
}
