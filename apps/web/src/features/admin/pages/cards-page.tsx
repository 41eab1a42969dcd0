import {
  CARD_STATUS_STEPS,
  CARD_SUSPENSE_RESOLUTIONS,
  type CardStepTarget,
  type CardSuspenseResolution,
  type DecideLimitRequestBody,
  LIMIT_REQUEST_STATES,
  type OpsCard,
  type OpsLimitRequest,
  type OpsSuspenseItem,
  opsCardEndpoints,
} from '@meridian/contracts/card-ops';
import { CARD_STATUSES, type CardLimits, type CardStatus } from '@meridian/contracts/cards';
import { Alert, Button, Form, Input, Modal, Radio, Select, Space, Table, Tabs, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api-client.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import {
  useDecideLimitRequest,
  useResolveCardSuspense,
  useStepCard,
  useUnblockCardPin,
} from '../api/decide-card-ops.ts';
import { useCardSuspense, useLimitRequests, useOpsCards } from '../api/list-card-ops.ts';
import { useMayCall } from '../components/operator-context.tsx';
import { StatusFilter } from '../components/status-filter.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { QueryError } from '../components/query-error.tsx';
import { ReasonModal } from '../components/reason-modal.tsx';
import { adminUserPath } from '../lib/admin-paths.ts';
import { formatDateTime } from '../lib/time.ts';
import { usePaging } from '../lib/use-paging.ts';

const ALL = 'all';
type RequestState = OpsLimitRequest['state'];
const STATE_COLORS: Record<RequestState, string> = { PENDING: 'gold', APPROVED: 'green', REJECTED: 'red' };
const STATUS_COLORS: Partial<Record<CardStatus, string>> = {
  UNDER_REVIEW: 'gold',
  PROCESSING: 'blue',
  SHIPPED: 'cyan',
  ACTIVE: 'green',
  FROZEN: 'red',
  RETURNED: 'red',
};
const LIMIT_FIELDS = ['perTransaction', 'daily', 'monthly'] as const;
const APPROVE_FIELDS = ['reply', 'limits.perTransaction', 'limits.daily', 'limits.monthly'] as const;
/** A card amount as the server takes it: digits with at most 2 decimals (JPY: none; the server says so). */
const AMOUNT_PATTERN = /^\d{1,13}(\.\d{1,2})?$/;

/** Limits on one line: per payment / day / month, "—" for none. */
function LimitsText({ limits, currency }: { limits: CardLimits; currency: string }) {
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

/** Limit-change requests (issue 16 "Support requests … with status and reply"). */
function LimitRequestsTab() {
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

/** Cards with their masked number: the physical card's next steps and PIN unblocks. */
function CardsTab() {
  const { t, i18n } = useTranslation('admin');
  const [status, setStatus] = useState<CardStatus | typeof ALL>(ALL);
  const [userId, setUserId] = useState('');
  const paging = usePaging();
  const list = useOpsCards({
    pageID: paging.pageID,
    pageSize: paging.pageSize,
    ...(status !== ALL && { status }),
    ...(userId !== '' && { userId }),
  });
  const mayStep = useMayCall(opsCardEndpoints.setCardStatus);
  const mayUnblock = useMayCall(opsCardEndpoints.unblockPin);
  const step = useStepCard();
  const unblock = useUnblockCardPin();
  const [confirming, setConfirming] = useState<{ card: OpsCard; to: CardStepTarget } | null>(null);

  const nextSteps = (card: OpsCard): readonly CardStepTarget[] =>
    card.kind === 'PHYSICAL' && card.status in CARD_STATUS_STEPS
      ? CARD_STATUS_STEPS[card.status as keyof typeof CARD_STATUS_STEPS]
      : [];

  return (
    <>
      <Space style={{ marginBottom: 16 }} wrap>
        <StatusFilter
          value={status}
          statuses={CARD_STATUSES}
          all={ALL}
          labelOf={(value) => t(`cards.status.${value}`)}
          onChange={(value) => {
            setStatus(value);
            paging.reset();
          }}
        />
        <Input.Search
          aria-label={t('cards.userId')}
          placeholder={t('cards.userId')}
          allowClear
          style={{ width: 340 }}
          onSearch={(value) => {
            setUserId(value.trim());
            paging.reset();
          }}
        />
      </Space>
      {list.isError && <QueryError error={list.error} onRetry={() => void list.refetch()} />}
      <Table<OpsCard>
        rowKey="id"
        loading={list.isFetching}
        dataSource={list.data?.list}
        pagination={paging.pagination(list.data?.totalCount)}
        scroll={{ x: 1150 }}
        columns={[
          { title: t('common.id'), dataIndex: 'id', width: 70 },
          {
            title: t('common.user'),
            dataIndex: 'userId',
            width: 160,
            ellipsis: true,
            render: (id: string) => <Link to={adminUserPath(id)}>{id}</Link>,
          },
          {
            title: t('cards.card'),
            dataIndex: 'maskedNumber',
            render: (masked: string, row) => (
              <Space orientation="vertical" size={0}>
                <span>{masked}</span>
                <span>
                  {t(`cards.kind.${row.kind}`)} · {row.network} · {row.currency}
                </span>
              </Space>
            ),
          },
          { title: t('cards.cardholder'), dataIndex: 'cardholderName', width: 140, ellipsis: true },
          {
            title: t('common.status'),
            dataIndex: 'status',
            width: 230,
            render: (value: CardStatus, row) => (
              <Space orientation="vertical" size={2}>
                <Tag color={STATUS_COLORS[value] ?? 'default'}>{t(`cards.status.${value}`)}</Tag>
                {row.isLocked && <Tag>{t('cards.locked')}</Tag>}
                {row.pinBlockedUntil && (
                  <Tag color="red">
                    {t('cards.pinBlocked', { until: formatDateTime(row.pinBlockedUntil, i18n.language) })}
                  </Tag>
                )}
              </Space>
            ),
          },
          {
            title: t('cards.limits'),
            key: 'limits',
            render: (_, row) => <LimitsText limits={row.limits} currency={row.currency} />,
          },
          {
            title: t('common.actions'),
            key: 'actions',
            fixed: 'right',
            render: (_, row) => (
              <Space wrap>
                {mayStep &&
                  nextSteps(row).map((to) => (
                    <Button key={to} size="small" onClick={() => setConfirming({ card: row, to })}>
                      {t(`cards.stepTo.${to}`)}
                    </Button>
                  ))}
                {mayUnblock && row.pinBlockedUntil && (
                  <Button
                    size="small"
                    type="primary"
                    loading={unblock.isPending}
                    onClick={() => unblock.mutate(row.id)}
                  >
                    {t('cards.unblockPin')}
                  </Button>
                )}
              </Space>
            ),
          },
        ]}
      />
      <Modal
        open={confirming !== null}
        title={t('cards.stepTitle')}
        okText={confirming ? t(`cards.stepTo.${confirming.to}`) : ''}
        cancelText={t('common.cancel')}
        okButtonProps={{ loading: step.isPending }}
        onCancel={() => setConfirming(null)}
        onOk={() => {
          if (!confirming) return;
          step.mutate({ id: confirming.card.id, status: confirming.to }, { onSettled: () => setConfirming(null) });
        }}
      >
        {confirming &&
          t('cards.stepConfirm', {
            card: confirming.card.maskedNumber,
            from: t(`cards.status.${confirming.card.status}`),
            to: t(`cards.status.${confirming.to}`),
          })}
      </Modal>
    </>
  );
}

interface ResolveForm {
  resolution: CardSuspenseResolution;
  note: string;
}

/**
 * Resolve one suspense item: book it on the card its token names (a clearing is charged, a refund
 * credited) or write it off; the note goes to the audit log. A refusal names the field or says why.
 */
function ResolveModal({ item, onClose }: { item: OpsSuspenseItem | null; onClose: () => void }) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<ResolveForm>();
  const resolve = useResolveCardSuspense();
  const [error, setError] = useState<string | null>(null);
  const close = () => {
    setError(null);
    onClose();
  };
  const submit = async () => {
    setError(null);
    const values = await form.validateFields();
    if (!item) return;
    try {
      await resolve.mutateAsync({ id: item.id, ...values });
      close();
    } catch (failure) {
      if (failure instanceof ApiError) setError(applyServerErrors(form, failure.response, ['note', 'resolution']));
    }
  };
  return (
    <Modal
      open={item !== null}
      title={t('cards.resolveTitle')}
      okText={t('cards.resolve')}
      cancelText={t('common.cancel')}
      okButtonProps={{ loading: resolve.isPending }}
      onOk={() => void submit()}
      onCancel={close}
      destroyOnHidden
    >
      {item && (
        <Form<ResolveForm>
          form={form}
          layout="vertical"
          preserve={false}
          initialValues={{ resolution: item.cardId === null ? 'WRITE_OFF' : 'ASSIGN_TO_CARD', note: '' }}
        >
          <p>
            {t(`cards.event.${item.eventType}`, { defaultValue: item.eventType })} · {item.amount} {item.currency} ·{' '}
            {item.cardId === null ? t('cards.unknownCard') : `#${item.cardId}`}
          </p>
          <Form.Item name="resolution" label={t('cards.resolution')}>
            <Radio.Group
              options={CARD_SUSPENSE_RESOLUTIONS.map((value) => ({
                value,
                disabled: value === 'ASSIGN_TO_CARD' && item.cardId === null,
                label: t(`cards.resolutionOf.${value}.${item.eventType === 'refund' ? 'refund' : 'clearing'}`),
              }))}
            />
          </Form.Item>
          <Form.Item
            name="note"
            label={t('cards.resolveNote')}
            rules={[{ required: true, whitespace: true, message: t('common.required') }]}
          >
            <Input.TextArea rows={3} maxLength={500} showCount />
          </Form.Item>
          {error && <Alert type="error" showIcon title={error} />}
        </Form>
      )}
    </Modal>
  );
}

/** Clearings and refunds the processor sent for no authorisation Meridian knows (booked to suspense). */
function SuspenseTab() {
  const { t, i18n } = useTranslation('admin');
  const mayResolve = useMayCall(opsCardEndpoints.resolveSuspense);
  const [resolving, setResolving] = useState<OpsSuspenseItem | null>(null);
  const [state, setState] = useState<'OPEN' | 'RESOLVED' | typeof ALL>('OPEN');
  const paging = usePaging();
  const items = useCardSuspense({
    pageID: paging.pageID,
    pageSize: paging.pageSize,
    ...(state !== ALL && { state }),
  });
  return (
    <>
      <Space style={{ marginBottom: 16 }}>
        <Select
          aria-label={t('common.status')}
          style={{ width: 200 }}
          value={state}
          onChange={(value) => {
            setState(value);
            paging.reset();
          }}
          options={[
            { value: ALL, label: t('common.all') },
            { value: 'OPEN', label: t('cards.suspenseState.OPEN') },
            { value: 'RESOLVED', label: t('cards.suspenseState.RESOLVED') },
          ]}
        />
      </Space>
      <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('cards.suspenseHint')} />
      {items.isError && <QueryError error={items.error} onRetry={() => void items.refetch()} />}
      <Table<OpsSuspenseItem>
        rowKey="id"
        loading={items.isFetching}
        dataSource={items.data?.list}
        pagination={paging.pagination(items.data?.totalCount)}
        scroll={{ x: 1000 }}
        columns={[
          {
            title: t('common.time'),
            dataIndex: 'createdAt',
            render: (at: string) => formatDateTime(at, i18n.language),
          },
          {
            title: t('cards.eventType'),
            dataIndex: 'eventType',
            render: (value: string) => t(`cards.event.${value}`, { defaultValue: value }),
          },
          { title: t('cards.authorizationId'), dataIndex: 'processorAuthId', ellipsis: true },
          {
            title: t('cards.card'),
            dataIndex: 'cardId',
            render: (cardId: number | null) => (cardId === null ? t('cards.unknownCard') : `#${cardId}`),
          },
          {
            title: t('common.amount'),
            key: 'amount',
            align: 'right',
            render: (_, row) => `${row.amount} ${row.currency}`,
          },
          {
            title: t('common.status'),
            dataIndex: 'state',
            render: (value: OpsSuspenseItem['state'], row) => (
              <Space orientation="vertical" size={2}>
                <Tag color={value === 'OPEN' ? 'red' : 'default'}>{t(`cards.suspenseState.${value}`)}</Tag>
                {row.resolution && (
                  <span>
                    {t(`cards.resolutionOf.${row.resolution}.${row.eventType === 'refund' ? 'refund' : 'clearing'}`)}
                  </span>
                )}
                {row.note && <span>{row.note}</span>}
              </Space>
            ),
          },
          ...(mayResolve
            ? [
                {
                  title: t('common.actions'),
                  key: 'actions',
                  render: (_: unknown, row: OpsSuspenseItem) =>
                    row.state === 'OPEN' && (
                      <Button size="small" onClick={() => setResolving(row)}>
                        {t('cards.resolve')}
                      </Button>
                    ),
                },
              ]
            : []),
        ]}
      />
      <ResolveModal item={resolving} onClose={() => setResolving(null)} />
    </>
  );
}

/**
 * `/admin/cards` (issue 16 "Support requests: card limit-change requests", issue 19): limit-change
 * requests decided with a reply (support), cards with their masked number only, the physical card's
 * production steps and PIN unblocks (support), and the suspense clearings (finance). Each tab shows
 * only when the operator's role may make its list call; each action only when it may make that call.
 */
export function CardsPage() {
  const { t } = useTranslation('admin');
  const mayListRequests = useMayCall(opsCardEndpoints.listLimitRequests);
  const mayListCards = useMayCall(opsCardEndpoints.listCards);
  const mayListSuspense = useMayCall(opsCardEndpoints.listSuspense);
  return (
    <>
      <PageTitle>{t('cards.title')}</PageTitle>
      <Tabs
        items={[
          ...(mayListRequests ? [{ key: 'requests', label: t('cards.requests'), children: <LimitRequestsTab /> }] : []),
          ...(mayListCards ? [{ key: 'cards', label: t('cards.cards'), children: <CardsTab /> }] : []),
          ...(mayListSuspense ? [{ key: 'suspense', label: t('cards.suspense'), children: <SuspenseTab /> }] : []),
        ]}
      />
    </>
  );
}
