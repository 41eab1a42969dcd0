import type { OperatorView } from '@meridian/contracts/back-office';
import { OPERATOR_ROLES, type OperatorRole } from '@meridian/contracts/operators';
import { Alert, Button, Form, Input, Modal, Popconfirm, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCreateOperator, useOperators, useUpdateOperator } from '../api/operators.ts';
import { useOperatorSessionContext } from '../components/operator-context.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { QueryError } from '../components/query-error.tsx';
import { formatDateTime } from '../lib/time.ts';

/** The create form, then the new operator's temporary password, shown once. */
function CreateOperatorModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<{ email: string; role: OperatorRole }>();
  const create = useCreateOperator();
  const [created, setCreated] = useState<{ email: string; temporaryPassword: string } | null>(null);
  const close = () => {
    setCreated(null);
    form.resetFields();
    onClose();
  };
  const submit = async () => {
    const { email, role } = await form.validateFields();
    try {
      const answer = await create.mutateAsync({ email: email.trim(), role });
      setCreated({ email: answer.operator.email, temporaryPassword: answer.temporaryPassword });
    } catch {
      // Shown by the HTTP client (e.g. the email is taken).
    }
  };

  if (created) {
    return (
      <Modal
        open={open}
        title={t('operators.createdTitle')}
        closable={false}
        maskClosable={false}
        footer={
          <Button type="primary" onClick={close}>
            {t('operators.passwordNoted')}
          </Button>
        }
      >
        <Alert type="warning" showIcon title={t('operators.passwordOnce')} style={{ marginBottom: 16 }} />
        <p>{t('operators.createdFor', { email: created.email })}</p>
        <Typography.Paragraph>
          {t('operators.temporaryPassword')}{' '}
          <Typography.Text code copyable data-testid="admin-temporary-password">
            {created.temporaryPassword}
          </Typography.Text>
        </Typography.Paragraph>
      </Modal>
    );
  }
  return (
    <Modal
      open={open}
      title={t('operators.createTitle')}
      okText={t('operators.create')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: create.isPending }}
      onOk={() => void submit()}
      onCancel={close}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false} initialValues={{ role: 'support' }}>
        <Form.Item
          name="email"
          label={t('operators.email')}
          rules={[{ required: true, type: 'email', message: t('login.emailInvalid') }]}
        >
          <Input autoComplete="off" />
        </Form.Item>
        <Form.Item name="role" label={t('operators.role')} rules={[{ required: true, message: t('common.required') }]}>
          <Select options={OPERATOR_ROLES.map((role) => ({ value: role, label: t(`roles.${role}`) }))} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * `/admin/operators` (admin): every operator; create one (its temporary password is shown once),
 * change a role, deactivate or reactivate, reset the authenticator. An admin cannot lock themself out here.
 */
export function OperatorsPage() {
  const { t, i18n } = useTranslation('admin');
  const { operator: self } = useOperatorSessionContext();
  const operators = useOperators();
  const update = useUpdateOperator();
  const [isCreating, setCreating] = useState(false);
  const change = (id: number, body: Parameters<typeof update.mutateAsync>[0]['change']) =>
    void update.mutateAsync({ id, change: body }).catch(() => undefined);

  return (
    <>
      <PageTitle
        extra={
          <Button type="primary" onClick={() => setCreating(true)}>
            {t('operators.new')}
          </Button>
        }
      >
        {t('operators.title')}
      </PageTitle>
      {operators.isError && <QueryError error={operators.error} onRetry={() => void operators.refetch()} />}
      <Table<OperatorView>
        rowKey="id"
        loading={operators.isFetching}
        dataSource={operators.data}
        pagination={{ pageSize: 50, hideOnSinglePage: true }}
        columns={[
          { title: t('operators.email'), dataIndex: 'email' },
          {
            title: t('operators.role'),
            dataIndex: 'role',
            render: (role: OperatorRole, row) => (
              <Select
                aria-label={t('operators.roleOf', { email: row.email })}
                size="small"
                style={{ width: 150 }}
                value={role}
                disabled={row.id === self.id}
                options={OPERATOR_ROLES.map((value) => ({ value, label: t(`roles.${value}`) }))}
                onChange={(value) => change(row.id, { role: value })}
              />
            ),
          },
          {
            title: t('common.status'),
            dataIndex: 'isActive',
            render: (isActive: boolean, row) => (
              <Space size={4}>
                {isActive ? <Tag color="green">{t('operators.active')}</Tag> : <Tag>{t('operators.inactive')}</Tag>}
                {row.hasTotp ? (
                  <Tag color="blue">{t('operators.totpOn')}</Tag>
                ) : (
                  <Tag color="orange">{t('operators.totpPending')}</Tag>
                )}
              </Space>
            ),
          },
          {
            title: t('operators.createdAt'),
            dataIndex: 'createdAt',
            render: (at: string) => formatDateTime(at, i18n.language),
          },
          {
            title: t('operators.lastSignIn'),
            dataIndex: 'lastSignInAt',
            render: (at: string | null) => formatDateTime(at, i18n.language),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            render: (_, row) =>
              row.id !== self.id && (
                <Space>
                  <Popconfirm
                    title={row.isActive ? t('operators.deactivateConfirm') : t('operators.reactivateConfirm')}
                    okText={t('common.yes')}
                    cancelText={t('common.cancel')}
                    onConfirm={() => change(row.id, { isActive: !row.isActive })}
                  >
                    <Button size="small" danger={row.isActive}>
                      {row.isActive ? t('operators.deactivate') : t('operators.reactivate')}
                    </Button>
                  </Popconfirm>
                  {row.hasTotp && (
                    <Popconfirm
                      title={t('operators.resetTotpConfirm')}
                      okText={t('common.yes')}
                      cancelText={t('common.cancel')}
                      onConfirm={() => change(row.id, { resetTotp: true })}
                    >
                      <Button size="small">{t('operators.resetTotp')}</Button>
                    </Popconfirm>
                  )}
                </Space>
              ),
          },
        ]}
      />
      <CreateOperatorModal open={isCreating} onClose={() => setCreating(false)} />
    </>
  );
}
