import { adminEndpoints } from '@meridian/contracts/admin';
import { Button, Form, Input, Modal, Space, Table, Tag, Tooltip } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  useApproveWithdrawal,
  useCompleteWithdrawal,
  useFailWithdrawal,
  useProcessWithdrawal,
} from '../api/decide-withdrawal.ts';
import { useWithdrawals } from '../api/list-withdrawals.ts';
import { useMayCall } from '../components/operator-context.tsx';
import { StatusFilter } from '../components/status-filter.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { QueryError } from '../components/query-error.tsx';
import { ReasonModal } from '../components/reason-modal.tsx';
import { adminUserPath } from '../lib/admin-paths.ts';
import { formatDateTime } from '../lib/time.ts';
import { usePaging } from '../lib/use-paging.ts';

/** Withdrawal states: 0 waiting, 1 processing, 2 success, 3 failure, 4 cancelled. */
const WITHDRAWAL_STATUSES = [0, 1, 2, 3, 4] as const;
const STATUS_COLORS: Record<number, string> = { 0: 'gold', 1: 'blue', 2: 'green', 3: 'red', 4: 'default' };
const ALL = -1;

/** The complete modal: the chain transaction that paid the withdrawal. */
function CompleteModal(props: { id: string | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const complete = useCompleteWithdrawal();
  const [form] = Form.useForm<{ txHash: string }>();
  const submit = async () => {
    const { txHash } = await form.validateFields();
    if (!props.id) return;
    try {
      await complete.mutateAsync({ id: props.id, txHash: txHash.trim() });
      props.onClose();
    } catch {
      // Shown by the HTTP client.
    }
  };
  return (
    <Modal
      open={props.id !== null}
      title={t('withdrawals.completeTitle')}
      okText={t('withdrawals.complete')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: complete.isPending }}
      onOk={() => void submit()}
      onCancel={props.onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="txHash"
          label={t('withdrawals.txHash')}
          rules={[{ required: true, whitespace: true, max: 128, message: t('common.required') }]}
        >
          <Input maxLength={128} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * `/admin/withdrawals`: withdrawals by status, with the second approval of large ones, process,
 * complete with the transaction hash, and fail with a reason, each shown when the role may call it.
 */
export function WithdrawalsPage() {
  const { t, i18n } = useTranslation('admin');
  const [status, setStatus] = useState<number>(0);
  const paging = usePaging();
  const withdrawals = useWithdrawals({
    pageID: paging.pageID,
    pageSize: paging.pageSize,
    ...(status !== ALL && { status }),
  });
  const approve = useApproveWithdrawal();
  const process = useProcessWithdrawal();
  const fail = useFailWithdrawal();
  const mayApprove = useMayCall(adminEndpoints.approveWithdrawal);
  const mayProcess = useMayCall(adminEndpoints.processWithdrawal);
  const mayComplete = useMayCall(adminEndpoints.completeWithdrawal);
  const mayFail = useMayCall(adminEndpoints.failWithdrawal);
  const [completing, setCompleting] = useState<string | null>(null);
  const [failing, setFailing] = useState<string | null>(null);
  const quietly = (promise: Promise<unknown>) => void promise.catch(() => undefined);

  return (
    <>
      <PageTitle>{t('withdrawals.title')}</PageTitle>
      <Space style={{ marginBottom: 16 }}>
        <StatusFilter<number, number>
          value={status}
          statuses={WITHDRAWAL_STATUSES}
          all={ALL}
          labelOf={(value) => t(`withdrawalStatus.${value}`)}
          onChange={(value) => {
            setStatus(value);
            paging.reset();
          }}
        />
      </Space>
      {withdrawals.isError && <QueryError error={withdrawals.error} onRetry={() => void withdrawals.refetch()} />}
      <Table
        rowKey="id"
        loading={withdrawals.isFetching}
        dataSource={withdrawals.data?.list}
        pagination={paging.pagination(withdrawals.data?.totalCount)}
        scroll={{ x: 1200 }}
        columns={[
          { title: t('common.id'), dataIndex: 'id' },
          {
            title: t('common.time'),
            dataIndex: 'createTime',
            render: (at: string) => formatDateTime(at, i18n.language),
          },
          {
            title: t('common.user'),
            dataIndex: 'userId',
            width: 140,
            ellipsis: true,
            render: (userId: string) => <Link to={adminUserPath(userId)}>{userId}</Link>,
          },
          {
            title: t('common.asset'),
            dataIndex: 'coinCode',
            render: (coin: string, row) => `${coin} (${row.network})`,
          },
          { title: t('common.amount'), dataIndex: 'amount', align: 'right' },
          { title: t('withdrawals.fee'), dataIndex: 'fee', align: 'right' },
          {
            title: t('withdrawals.usdValue'),
            dataIndex: 'usdValue',
            align: 'right',
            render: (usd: string | null) => usd ?? '—',
          },
          {
            title: t('withdrawals.address'),
            dataIndex: 'address',
            ellipsis: true,
            render: (address: string) => (
              <Tooltip title={address}>
                <span>{address}</span>
              </Tooltip>
            ),
          },
          {
            title: t('common.status'),
            dataIndex: 'status',
            width: 200,
            render: (value: number, row) => (
              <Space orientation="vertical" size={2}>
                <Tag color={STATUS_COLORS[value]}>
                  {t(`withdrawalStatus.${value}`, { defaultValue: String(value) })}
                </Tag>
                {row.needsSecondApproval && (
                  <Tag color={row.approvedBy ? 'green' : 'orange'}>
                    {row.approvedBy
                      ? t('withdrawals.approvedBy', { who: row.approvedBy })
                      : t('withdrawals.needsApproval')}
                  </Tag>
                )}
                {row.failureReason && <span>{row.failureReason}</span>}
                {row.txHash && <span>{row.txHash}</span>}
              </Space>
            ),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            fixed: 'right',
            render: (_, row) => {
              const isAwaitingApproval = row.needsSecondApproval && !row.approvedBy;
              return (
                <Space wrap>
                  {mayApprove && row.status === 0 && isAwaitingApproval && (
                    <Button
                      size="small"
                      type="primary"
                      loading={approve.isPending}
                      onClick={() => quietly(approve.mutateAsync(row.id))}
                    >
                      {t('withdrawals.approve')}
                    </Button>
                  )}
                  {mayProcess && row.status === 0 && !isAwaitingApproval && (
                    <Button
                      size="small"
                      type="primary"
                      loading={process.isPending}
                      onClick={() => quietly(process.mutateAsync(row.id))}
                    >
                      {t('withdrawals.process')}
                    </Button>
                  )}
                  {mayComplete && row.status === 1 && (
                    <Button size="small" onClick={() => setCompleting(row.id)}>
                      {t('withdrawals.complete')}
                    </Button>
                  )}
                  {mayFail && (row.status === 0 || row.status === 1) && (
                    <Button size="small" danger onClick={() => setFailing(row.id)}>
                      {t('withdrawals.fail')}
                    </Button>
                  )}
                </Space>
              );
            },
          },
        ]}
      />
      <CompleteModal id={completing} onClose={() => setCompleting(null)} />
      <ReasonModal
        open={failing !== null}
        title={t('withdrawals.failTitle')}
        okText={t('withdrawals.fail')}
        label={t('withdrawals.failReason')}
        isDanger
        isPending={fail.isPending}
        onCancel={() => setFailing(null)}
        onSubmit={async (reason) => {
          if (failing) await fail.mutateAsync({ id: failing, reason });
          setFailing(null);
        }}
      />
    </>
  );
}
