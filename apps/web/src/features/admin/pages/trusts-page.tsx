import { type OpsTrust, opsTrustEndpoints, TRUST_STATES, type TrustState } from '@meridian/contracts/trust';
import { Alert, Button, Form, Input, Modal, Select, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api-client.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import { useReleaseTrust, useTrusts } from '../api/trusts.ts';
import { useMayCall } from '../components/operator-context.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { QueryError } from '../components/query-error.tsx';
import { adminUserPath } from '../lib/admin-paths.ts';
import { formatDateTime } from '../lib/time.ts';
import { usePaging } from '../lib/use-paging.ts';

const STATE_COLORS: Record<TrustState, string> = { active: 'green', claim: 'orange', closed: 'default' };
const RELEASE_FIELDS = ['reference', 'verificationNote'] as const;

interface ReleaseForm {
  reference: string;
  verificationNote: string;
}

/** The release form: the payout's reference and how the beneficiaries were verified, with what moves. */
function ReleaseModal({ trust, onClose }: { trust: OpsTrust | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<ReleaseForm>();
  const release = useReleaseTrust();
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    form.resetFields();
    onClose();
  };
  const submit = async () => {
    setError(null);
    const values = await form.validateFields();
    if (!trust) return;
    try {
      await release.mutateAsync({ id: trust.id, ...values });
      close();
    } catch (failure) {
      if (failure instanceof ApiError) setError(applyServerErrors(form, failure.response, RELEASE_FIELDS));
    }
  };
  const required = { required: true, whitespace: true, message: t('common.required') };
  return (
    <Modal
      open={trust !== null}
      title={t('trusts.releaseTitle', { name: trust?.name ?? '' })}
      okText={t('trusts.release')}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger: true, loading: release.isPending }}
      onOk={() => void submit()}
      onCancel={close}
      destroyOnHidden
    >
      <Alert
        type="warning"
        showIcon
        style={{ marginBottom: 16 }}
        title={t('trusts.releaseWarning', { holding: trust?.holding ?? '' })}
      />
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
      <Form<ReleaseForm> form={form} layout="vertical" preserve={false}>
        <Form.Item name="reference" label={t('trusts.reference')} extra={t('trusts.referenceHint')} rules={[required]}>
          <Input maxLength={120} autoComplete="off" />
        </Form.Item>
        <Form.Item name="verificationNote" label={t('trusts.verificationNote')} rules={[required]}>
          <Input.TextArea rows={3} maxLength={1000} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * `/admin/trusts` (inactivity switch): trusts by state, claim first. A trust
 * moves to claim when its settlor stayed away past the chosen period; finance releases it after
 * verifying the beneficiaries shown here (no automatic payout). Compliance sees the list.
 */
export function TrustsPage() {
  const { t, i18n } = useTranslation('admin');
  const [state, setState] = useState<TrustState>('claim');
  const [releasing, setReleasing] = useState<OpsTrust | null>(null);
  const mayRelease = useMayCall(opsTrustEndpoints.releaseTrust);
  const paging = usePaging();
  const trusts = useTrusts({ pageID: paging.pageID, pageSize: paging.pageSize, state });
  const at = (value: string | null) => (value ? formatDateTime(value, i18n.language) : '—');

  return (
    <>
      <PageTitle>{t('trusts.title')}</PageTitle>
      <Space style={{ marginBottom: 16 }}>
        <Select
          aria-label={t('trusts.state')}
          style={{ width: 200 }}
          value={state}
          onChange={(value) => {
            setState(value);
            paging.reset();
          }}
          options={TRUST_STATES.map((value) => ({ value, label: t(`trusts.states.${value}`) }))}
        />
      </Space>
      {trusts.isError && <QueryError error={trusts.error} onRetry={() => void trusts.refetch()} />}
      <Table<OpsTrust>
        rowKey="id"
        loading={trusts.isFetching}
        dataSource={trusts.data?.list}
        pagination={paging.pagination(trusts.data?.totalCount)}
        scroll={{ x: 1300 }}
        columns={[
          { title: t('common.id'), dataIndex: 'id' },
          { title: t('trusts.name'), dataIndex: 'name', ellipsis: true },
          {
            title: t('trusts.settlor'),
            dataIndex: 'userId',
            width: 200,
            ellipsis: true,
            render: (userId: string, row) => <Link to={adminUserPath(userId)}>{row.userEmail ?? userId}</Link>,
          },
          { title: t('trusts.holding'), dataIndex: 'holding', align: 'right' },
          {
            title: t('trusts.beneficiaries'),
            dataIndex: 'beneficiaries',
            render: (beneficiaries: OpsTrust['beneficiaries']) => (
              <Space orientation="vertical" size={0}>
                {beneficiaries.map((b) => (
                  <span key={b.email}>
                    {b.name} · {b.email} · {b.sharePct}%
                  </span>
                ))}
              </Space>
            ),
          },
          { title: t('trusts.lastSignIn'), dataIndex: 'lastSignInAt', render: at },
          {
            title: t('trusts.state'),
            dataIndex: 'state',
            render: (value: TrustState, row) => (
              <Space orientation="vertical" size={2}>
                <Tag color={STATE_COLORS[value]}>{t(`trusts.states.${value}`)}</Tag>
                {row.claimAt && <span>{t('trusts.claimSince', { at: at(row.claimAt) })}</span>}
                {row.releasedAt && (
                  <span>
                    {t('trusts.releasedBy', {
                      who: row.releasedBy ?? '—',
                      at: at(row.releasedAt),
                      reference: row.releaseReference ?? '—',
                    })}
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
              mayRelease &&
              row.state === 'claim' && (
                <Button size="small" danger onClick={() => setReleasing(row)}>
                  {t('trusts.release')}
                </Button>
              ),
          },
        ]}
      />
      <ReleaseModal trust={releasing} onClose={() => setReleasing(null)} />
    </>
  );
}
