import {
  type ApplySuspenseWireBody,
  fundWireEndpoints,
  INCOMING_WIRE_STATUSES,
  type IncomingWire,
  type IncomingWireStatus,
  OUTGOING_WIRE_STATUSES,
  type OutgoingWire,
  type OutgoingWireStatus,
  type RecordWireBody,
} from '@meridian/contracts/fund-wires';
import { Alert, Button, Descriptions, Form, Input, Modal, Space, Table, Tabs, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api-client.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import {
  useApplySuspenseWire,
  useMarkWireFailed,
  useMarkWireSent,
  useRecordWire,
  useReturnSuspenseWire,
} from '../api/decide-wire.ts';
import { useIncomingWires, useOutgoingWires } from '../api/list-wires.ts';
import { useMayCall } from '../components/operator-context.tsx';
import { StatusFilter } from '../components/status-filter.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { QueryError } from '../components/query-error.tsx';
import { ReasonModal } from '../components/reason-modal.tsx';
import { adminUserPath } from '../lib/admin-paths.ts';
import { formatDateTime } from '../lib/time.ts';
import { usePaging } from '../lib/use-paging.ts';

const ALL = 'all';
const INCOMING_COLORS: Record<IncomingWireStatus, string> = { CREDITED: 'green', SUSPENSE: 'red', RETURNED: 'default' };
const OUTGOING_COLORS: Record<OutgoingWireStatus, string> = { PENDING: 'gold', SENT: 'green', FAILED: 'red' };
const RECORD_FIELDS = ['reference', 'amount', 'sender', 'bankTransactionId'] as const;
const APPLY_FIELDS = ['reference', 'note'] as const;
/** A USD amount as the server takes it: digits with at most 2 decimals (contracts' `amountMinorSchema('USD')`). */
const USD_AMOUNT_PATTERN = /^\d{1,13}(\.\d{1,2})?$/;

/** The record form: the bank's credit as the statement shows it; the answer says what became of it. */
function RecordWireModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<RecordWireBody>();
  const record = useRecordWire();
  const [error, setError] = useState<string | null>(null);
  const [recorded, setRecorded] = useState<IncomingWire | null>(null);

  const close = () => {
    setError(null);
    setRecorded(null);
    form.resetFields();
    onClose();
  };
  const submit = async () => {
    setError(null);
    const values = await form.validateFields();
    try {
      setRecorded(await record.mutateAsync(values));
    } catch (failure) {
      if (failure instanceof ApiError) setError(applyServerErrors(form, failure.response, RECORD_FIELDS));
    }
  };
  const required = { required: true, whitespace: true, message: t('common.required') };

  return (
    <Modal
      open={open}
      title={t('wires.recordTitle')}
      onCancel={close}
      destroyOnHidden
      footer={
        recorded
          ? [
              <Button key="done" type="primary" onClick={close}>
                {t('wires.done')}
              </Button>,
            ]
          : [
              <Button key="cancel" onClick={close}>
                {t('common.cancel')}
              </Button>,
              <Button key="ok" type="primary" loading={record.isPending} onClick={() => void submit()}>
                {t('wires.record')}
              </Button>,
            ]
      }
    >
      {recorded ? (
        <Alert
          type={recorded.status === 'CREDITED' ? 'success' : 'warning'}
          showIcon
          data-testid="wire-recorded"
          title={
            recorded.isDuplicate
              ? t('wires.duplicate')
              : recorded.status === 'CREDITED'
                ? t('wires.credited', { amount: recorded.amount, reference: recorded.reference })
                : t('wires.toSuspense', { amount: recorded.amount })
          }
          description={
            recorded.suspenseReason
              ? t(`wires.suspenseReason.${recorded.suspenseReason}`, { defaultValue: recorded.suspenseReason })
              : undefined
          }
        />
      ) : (
        <Form<RecordWireBody> form={form} layout="vertical" preserve={false}>
          {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
          <Form.Item name="reference" label={t('wires.reference')} extra={t('wires.referenceHint')} rules={[required]}>
            <Input maxLength={64} autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="amount"
            label={t('wires.amountUsd')}
            rules={[required, { pattern: USD_AMOUNT_PATTERN, message: t('wires.amountInvalid') }]}
          >
            <Input inputMode="decimal" maxLength={16} autoComplete="off" />
          </Form.Item>
          <Form.Item name="sender" label={t('wires.sender')} rules={[required]}>
            <Input maxLength={200} autoComplete="off" />
          </Form.Item>
          <Form.Item
            name="bankTransactionId"
            label={t('wires.bankTransactionId')}
            extra={t('wires.bankTransactionIdHint')}
            rules={[required]}
          >
            <Input maxLength={100} autoComplete="off" />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}

/**
 * Resolve a wire in suspense by applying it to the pending subscription the sender meant: the
 * reference and a note on how finance matched them. A refusal (171: no pending USD subscription of
 * that reference and amount) names the field and keeps the modal open.
 */
function ApplyWireModal({ wire, onClose }: { wire: IncomingWire | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<ApplySuspenseWireBody>();
  const apply = useApplySuspenseWire();
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    form.resetFields();
    onClose();
  };
  const submit = async () => {
    setError(null);
    const values = await form.validateFields();
    try {
      if (wire) await apply.mutateAsync({ id: wire.id, ...values });
      close();
    } catch (failure) {
      if (failure instanceof ApiError) setError(applyServerErrors(form, failure.response, APPLY_FIELDS));
    }
  };
  const required = { required: true, whitespace: true, message: t('common.required') };
  return (
    <Modal
      open={wire !== null}
      title={t('wires.applyTitle')}
      okText={t('wires.apply')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: apply.isPending }}
      onOk={() => void submit()}
      onCancel={close}
      destroyOnHidden
    >
      <Form<ApplySuspenseWireBody> form={form} layout="vertical" preserve={false}>
        {wire && (
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title={`${wire.amount} USD · ${wire.sender} · ${wire.reference}`}
            description={t('wires.applyHint')}
          />
        )}
        {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
        <Form.Item name="reference" label={t('wires.applyReference')} rules={[required]}>
          <Input maxLength={64} autoComplete="off" />
        </Form.Item>
        <Form.Item
          name="note"
          label={t('wires.applyNote')}
          rules={[required, { max: 500, message: t('common.tooLong', { max: 500 }) }]}
        >
          <Input.TextArea maxLength={500} autoSize={{ minRows: 2 }} />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/** Received wires: credited to their subscription, or held in suspense with the reason until resolved. */
function IncomingWiresTab() {
  const { t, i18n } = useTranslation('admin');
  const [status, setStatus] = useState<IncomingWireStatus | typeof ALL>(ALL);
  const [isRecording, setIsRecording] = useState(false);
  const mayRecord = useMayCall(fundWireEndpoints.recordWire);
  const mayApply = useMayCall(fundWireEndpoints.applySuspenseWire);
  const mayReturn = useMayCall(fundWireEndpoints.returnSuspenseWire);
  const returnWire = useReturnSuspenseWire();
  const [applying, setApplying] = useState<IncomingWire | null>(null);
  const [returning, setReturning] = useState<string | null>(null);
  const paging = usePaging();
  const wires = useIncomingWires({
    pageID: paging.pageID,
    pageSize: paging.pageSize,
    ...(status !== ALL && { status }),
  });

  return (
    <>
      <Space style={{ marginBottom: 16 }} wrap>
        <StatusFilter
          value={status}
          statuses={INCOMING_WIRE_STATUSES}
          all={ALL}
          labelOf={(value) => t(`wires.incomingStatus.${value}`)}
          onChange={(value) => {
            setStatus(value);
            paging.reset();
          }}
        />
        {mayRecord && (
          <Button type="primary" onClick={() => setIsRecording(true)}>
            {t('wires.recordTitle')}
          </Button>
        )}
      </Space>
      {wires.isError && <QueryError error={wires.error} onRetry={() => void wires.refetch()} />}
      <Table<IncomingWire>
        rowKey="id"
        loading={wires.isFetching}
        dataSource={wires.data?.list}
        pagination={paging.pagination(wires.data?.totalCount)}
        scroll={{ x: 1300 }}
        columns={[
          {
            title: t('common.time'),
            dataIndex: 'createdAt',
            render: (at: string) => formatDateTime(at, i18n.language),
          },
          {
            title: t('wires.reference'),
            dataIndex: 'reference',
            render: (reference: string) => <Typography.Text copyable>{reference}</Typography.Text>,
          },
          { title: t('wires.amountUsd'), dataIndex: 'amount', align: 'right' },
          { title: t('wires.sender'), dataIndex: 'sender', ellipsis: true },
          { title: t('wires.bankTransactionId'), dataIndex: 'bankTransactionId', ellipsis: true },
          {
            title: t('common.status'),
            dataIndex: 'status',
            render: (value: IncomingWireStatus, row) => (
              <Space orientation="vertical" size={2}>
                <Tag color={INCOMING_COLORS[value]}>{t(`wires.incomingStatus.${value}`)}</Tag>
                {row.suspenseReason && (
                  <span>{t(`wires.suspenseReason.${row.suspenseReason}`, { defaultValue: row.suspenseReason })}</span>
                )}
                {row.orderId && <span>{t('wires.order', { id: row.orderId })}</span>}
                {row.resolvedBy && row.resolvedAt && (
                  <span>
                    {t('wires.resolvedBy', {
                      who: row.resolvedBy,
                      at: formatDateTime(row.resolvedAt, i18n.language),
                      note: row.resolutionNote ?? '',
                    })}
                  </span>
                )}
              </Space>
            ),
          },
          { title: t('wires.recordedBy'), dataIndex: 'recordedBy', ellipsis: true },
          {
            title: t('common.actions'),
            key: 'actions',
            fixed: 'right',
            render: (_, row) =>
              row.status === 'SUSPENSE' && (
                <Space wrap>
                  {mayApply && (
                    <Button size="small" type="primary" onClick={() => setApplying(row)}>
                      {t('wires.apply')}
                    </Button>
                  )}
                  {mayReturn && (
                    <Button size="small" danger onClick={() => setReturning(row.id)}>
                      {t('wires.return')}
                    </Button>
                  )}
                </Space>
              ),
          },
        ]}
      />
      <RecordWireModal open={isRecording} onClose={() => setIsRecording(false)} />
      <ApplyWireModal wire={applying} onClose={() => setApplying(null)} />
      <ReasonModal
        open={returning !== null}
        title={t('wires.returnTitle')}
        okText={t('wires.return')}
        label={t('wires.returnReason')}
        isDanger
        isPending={returnWire.isPending}
        onCancel={() => setReturning(null)}
        onSubmit={async (note) => {
          if (returning) await returnWire.mutateAsync({ id: returning, note });
          setReturning(null);
        }}
      />
    </>
  );
}

/** Wires owed to users (redemptions to USD): mark each sent once it left the bank, or failed. */
function OutgoingWiresTab() {
  const { t, i18n } = useTranslation('admin');
  const [status, setStatus] = useState<OutgoingWireStatus | typeof ALL>('PENDING');
  const paging = usePaging();
  const wires = useOutgoingWires({
    pageID: paging.pageID,
    pageSize: paging.pageSize,
    ...(status !== ALL && { status }),
  });
  const markSent = useMarkWireSent();
  const markFailed = useMarkWireFailed();
  const mayMarkSent = useMayCall(fundWireEndpoints.markWireSent);
  const mayMarkFailed = useMayCall(fundWireEndpoints.markWireFailed);
  const [sending, setSending] = useState<string | null>(null);
  const [failing, setFailing] = useState<string | null>(null);

  return (
    <>
      <Space style={{ marginBottom: 16 }}>
        <StatusFilter
          value={status}
          statuses={OUTGOING_WIRE_STATUSES}
          all={ALL}
          labelOf={(value) => t(`wires.outgoingStatus.${value}`)}
          onChange={(value) => {
            setStatus(value);
            paging.reset();
          }}
        />
      </Space>
      {wires.isError && <QueryError error={wires.error} onRetry={() => void wires.refetch()} />}
      <Table<OutgoingWire>
        rowKey="id"
        loading={wires.isFetching}
        dataSource={wires.data?.list}
        pagination={paging.pagination(wires.data?.totalCount)}
        scroll={{ x: 1200 }}
        expandable={{
          expandedRowRender: (row) => (
            <Descriptions size="small" column={2} bordered>
              {Object.entries(row.bankAccount).map(([field, value]) => (
                <Descriptions.Item key={field} label={t(`wires.bankField.${field}`, { defaultValue: field })}>
                  {value === null || value === undefined ? '—' : String(value)}
                </Descriptions.Item>
              ))}
            </Descriptions>
          ),
        }}
        columns={[
          {
            title: t('common.time'),
            dataIndex: 'createdAt',
            render: (at: string) => formatDateTime(at, i18n.language),
          },
          {
            title: t('common.user'),
            dataIndex: 'userId',
            width: 160,
            ellipsis: true,
            render: (userId: string) => <Link to={adminUserPath(userId)}>{userId}</Link>,
          },
          {
            title: t('wires.reference'),
            dataIndex: 'reference',
            render: (reference: string) => <Typography.Text copyable>{reference}</Typography.Text>,
          },
          { title: t('wires.amountUsd'), dataIndex: 'amount', align: 'right' },
          {
            title: t('common.status'),
            dataIndex: 'status',
            render: (value: OutgoingWireStatus, row) => (
              <Space orientation="vertical" size={2}>
                <Tag color={OUTGOING_COLORS[value]}>{t(`wires.outgoingStatus.${value}`)}</Tag>
                {row.note && <span>{row.note}</span>}
                {row.decidedBy && row.decidedAt && (
                  <span>
                    {t('wires.decidedBy', { who: row.decidedBy, at: formatDateTime(row.decidedAt, i18n.language) })}
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
              row.status === 'PENDING' && (
                <Space wrap>
                  {mayMarkSent && (
                    <Button size="small" type="primary" onClick={() => setSending(row.id)}>
                      {t('wires.markSent')}
                    </Button>
                  )}
                  {mayMarkFailed && (
                    <Button size="small" danger onClick={() => setFailing(row.id)}>
                      {t('wires.markFailed')}
                    </Button>
                  )}
                </Space>
              ),
          },
        ]}
      />
      <ReasonModal
        open={sending !== null}
        title={t('wires.markSentTitle')}
        okText={t('wires.markSent')}
        label={t('wires.note')}
        isOptional
        isPending={markSent.isPending}
        onCancel={() => setSending(null)}
        onSubmit={async (note) => {
          if (sending) await markSent.mutateAsync({ id: sending, note });
          setSending(null);
        }}
      />
      <ReasonModal
        open={failing !== null}
        title={t('wires.markFailedTitle')}
        okText={t('wires.markFailed')}
        label={t('wires.failReason')}
        isDanger
        isPending={markFailed.isPending}
        onCancel={() => setFailing(null)}
        onSubmit={async (note) => {
          if (failing) await markFailed.mutateAsync({ id: failing, note });
          setFailing(null);
        }}
      />
    </>
  );
}

/**
 * `/admin/wires`: USD wires received on
 * Meridian's account, recorded by finance against the subscription reference the user was shown
 * (credited once, or held in suspense), and the wires owed to users who redeemed to USD.
 */
export function WiresPage() {
  const { t } = useTranslation('admin');
  return (
    <>
      <PageTitle>{t('wires.title')}</PageTitle>
      <Tabs
        items={[
          { key: 'incoming', label: t('wires.incoming'), children: <IncomingWiresTab /> },
          { key: 'outgoing', label: t('wires.outgoing'), children: <OutgoingWiresTab /> },
        ]}
      />
    </>
  );
}
