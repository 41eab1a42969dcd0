import {
  type DecideLimitRequestBody,
  LIMIT_REQUEST_STATES,
  type OpsLimitRequest,
  opsCardEndpoints,
} from '@meridian/contracts/card-ops';
import type { CardLimits } from '@meridian/contracts/cards';
import { Alert, Button, Form, Input, Modal, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api-client.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import { useDecideLimitRequest } from '../api/decide-card-ops.ts';
import { useLimitRequests } from '../api/list-card-ops.ts';
import { adminUserPath } from '../lib/admin-paths.ts';
import { formatDateTime } from '../lib/time.ts';
import { usePaging } from '../lib/use-paging.ts';
import { useMayCall } from './operator-context.tsx';
import { QueryError } from './query-error.tsx';
import { ReasonModal } from './reason-modal.tsx';
import { StatusFilter } from './status-filter.tsx';

const ALL = 'all';
type RequestState = OpsLimitRequest['state'];
const STATE_COLORS: Record<RequestState, string> = { PENDING: 'gold', APPROVED: 'green', REJECTED: 'red' };
const LIMIT_FIELDS = ['perTransaction', 'daily', 'monthly'] as const;
const APPROVE_FIELDS = ['reply', 'limits.perTransaction', 'limits.daily', 'limits.monthly'] as const;
/** A card amount as the server takes it: digits with at most 2 decimals (JPY: none; the server says so). */
const AMOUNT_PATTERN = /^\d{1,13}(\.\d{1,2})?$/;

/** Limits on one line: per payment / day / month, "—" for none. */
export function LimitsText({ limits, currency }: { limits: CardLimits; currency: string }) {
  const { t } = useTranslation('admin');
  return (
    <Space orientation="vertical" size={0}>
      {LIMIT_FIELDS.map((field) => (
        <span key={field}>
          {t(`cards.limit.${field}`)}: {limits[field] === null ? '—' : `${limits[field]} ${currency}`}
        </span>
      ))}
    </Space>
  );
}

interface ApproveForm {
  perTransaction: string;
  daily: string;
  monthly: string;
  reply: string;
}

/**
 * Approve a request with the limits to apply: prefilled with those requested (the card's current
 * ones where the user asked no change); an empty field means no limit. A refusal names the field.
 */
function ApproveModal({ request, onClose }: { request: OpsLimitRequest | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<ApproveForm>();
  const decide = useDecideLimitRequest();
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    form.resetFields();
    onClose();
  };
  const submit = async () => {
    setError(null);
    const values = await form.validateFields();
    if (!request) return;
    const limitOf = (text: string | undefined) => (text?.trim() ? text.trim() : null);
    const body: DecideLimitRequestBody = {
      isApproved: true,
      limits: {
        perTransaction: limitOf(values.perTransaction),
        daily: limitOf(values.daily),
        monthly: limitOf(values.monthly),
      },
      reply: values.reply,
    };
    try {
      await decide.mutateAsync({ id: request.id, ...body });
      close();
    } catch (failure) {
      if (failure instanceof ApiError) setError(applyServerErrors(form, failure.response, APPROVE_FIELDS));
    }
  };
  const initial = request
    ? Object.fromEntries(LIMIT_FIELDS.map((field) => [field, request.requested[field] ?? request.current[field] ?? '']))
    : {};
  return (
    <Modal
      open={request !== null}
      title={t('cards.approveTitle')}
      okText={t('cards.approve')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: decide.isPending }}
      onOk={() => void submit()}
      onCancel={close}
      destroyOnHidden
    >
      {request && (
        <Form<ApproveForm>
          form={form}
          layout="vertical"
          preserve={false}
          initialValues={{ ...initial, reply: t('cards.approvedReply') }}
        >
          <Alert
            type="info"
            showIcon
            style={{ marginBottom: 16 }}
            title={`${request.maskedNumber} · ${request.currency}`}
            description={request.reason}
          />
          {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 16 }} />}
          {LIMIT_FIELDS.map((field) => (
            <Form.Item
              key={field}
              name={field}
              label={`${t(`cards.limit.${field}`)} (${request.currency})`}
              extra={t('cards.emptyIsNone')}
              rules={[{ pattern: AMOUNT_PATTERN, message: t('cards.amountInvalid') }]}
            >
              <Input inputMode="decimal" maxLength={16} autoComplete="off" />
            </Form.Item>
          ))}
          <Form.Item
            name="reply"
            label={t('cards.reply')}
            rules={[
              { required: true, whitespace: true, message: t('common.required') },
              { max: 500, message: t('common.tooLong', { max: 500 }) },
            ]}
          >
            <Input.TextArea maxLength={500} autoSize={{ minRows: 2 }} />
          </Form.Item>
        </Form>
      )}
    </Modal>
  );
}

/**
 * Card limit-change requests, filtered by
 * state, approved with the limits to apply or rejected, each with a reply. Shown as a tab of the
 * cards page and of the support page (`/admin/support`).
 */
export function CardLimitRequests() {
  const { t, i18n } = useTranslation('admin');
  const [state, setState] = useState<RequestState | typeof ALL>('PENDING');
  const paging = usePaging();
  const requests = useLimitRequests({
    pageID: paging.pageID,
    pageSize: paging.pageSize,
    ...(state !== ALL && { state }),
  });
  const mayDecide = useMayCall(opsCardEndpoints.decideLimitRequest);
  const decide = useDecideLimitRequest();
  const [approving, setApproving] = useState<OpsLimitRequest | null>(null);
  const [rejecting, setRejecting] = useState<number | null>(null);

  return (
    <>
      <Space style={{ marginBottom: 16 }}>
        <StatusFilter
          value={state}
          statuses={LIMIT_REQUEST_STATES}
          all={ALL}
          labelOf={(value) => t(`cards.requestState.${value}`)}
          onChange={(value) => {
            setState(value);
            paging.reset();
          }}
        />
      </Space>
      {requests.isError && <QueryError error={requests.error} onRetry={() => void requests.refetch()} />}
      <Table<OpsLimitRequest>
        rowKey="id"
        loading={requests.isFetching}
        dataSource={requests.data?.list}
        pagination={paging.pagination(requests.data?.totalCount)}
        scroll={{ x: 1450 }}
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
            title: t('cards.card'),
            dataIndex: 'maskedNumber',
            render: (masked: string, row) => (
              <Space orientation="vertical" size={0}>
                <span>{masked}</span>
                <span>{row.currency}</span>
              </Space>
            ),
          },
          {
            title: t('cards.requested'),
            key: 'requested',
            render: (_, row) => <LimitsText limits={row.requested} currency={row.currency} />,
          },
          {
            title: t('cards.current'),
            key: 'current',
            render: (_, row) => <LimitsText limits={row.current} currency={row.currency} />,
          },
          { title: t('common.reason'), dataIndex: 'reason', width: 200 },
          {
            title: t('common.status'),
            dataIndex: 'state',
            render: (value: RequestState, row) => (
              <Space orientation="vertical" size={2}>
                <Tag color={STATE_COLORS[value]}>{t(`cards.requestState.${value}`)}</Tag>
                {row.reply && <span>{t('cards.replied', { reply: row.reply })}</span>}
                {row.decidedBy && row.decidedAt && (
                  <span>
                    {t('cards.decidedBy', { who: row.decidedBy, at: formatDateTime(row.decidedAt, i18n.language) })}
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
              row.state === 'PENDING' &&
              mayDecide && (
                <Space wrap>
                  <Button size="small" type="primary" onClick={() => setApproving(row)}>
                    {t('cards.approve')}
                  </Button>
                  <Button size="small" danger onClick={() => setRejecting(row.id)}>
                    {t('cards.reject')}
                  </Button>
                </Space>
              ),
          },
        ]}
      />
      <ApproveModal request={approving} onClose={() => setApproving(null)} />
      <ReasonModal
        open={rejecting !== null}
        title={t('cards.rejectTitle')}
        okText={t('cards.reject')}
        label={t('cards.reply')}
        isDanger
        isPending={decide.isPending}
        onCancel={() => setRejecting(null)}
        onSubmit={async (reply) => {
          if (rejecting !== null) await decide.mutateAsync({ id: rejecting, isApproved: false, reply });
          setRejecting(null);
        }}
      />
    </>
  );
}
