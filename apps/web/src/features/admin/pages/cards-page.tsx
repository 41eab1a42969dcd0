import {
  CARD_STATUS_STEPS,
  CARD_SUSPENSE_RESOLUTIONS,
  type CardStepTarget,
  type CardSuspenseResolution,
  type OpsCard,
  type OpsSuspenseItem,
  opsCardEndpoints,
} from '@meridian/contracts/card-ops';
import { CARD_STATUSES, type CardStatus } from '@meridian/contracts/cards';
import { Alert, Button, Form, Input, Modal, Radio, Select, Space, Table, Tabs, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api-client.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import { useResolveCardSuspense, useStepCard, useUnblockCardPin } from '../api/decide-card-ops.ts';
import { useCardSuspense, useOpsCards } from '../api/list-card-ops.ts';
import { CardLimitRequests, LimitsText } from '../components/card-limit-requests.tsx';
import { useMayCall } from '../components/operator-context.tsx';
import { StatusFilter } from '../components/status-filter.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { QueryError } from '../components/query-error.tsx';
import { adminUserPath } from '../lib/admin-paths.ts';
import { formatDateTime } from '../lib/time.ts';
import { usePaging } from '../lib/use-paging.ts';

const ALL = 'all';
const STATUS_COLORS: Partial<Record<CardStatus, string>> = {
  UNDER_REVIEW: 'gold',
  PROCESSING: 'blue',
  SHIPPED: 'cyan',
  ACTIVE: 'green',
  FROZEN: 'red',
  RETURNED: 'red',
};
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
 * `/admin/cards`: limit-change
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
          ...(mayListRequests
            ? [{ key: 'requests', label: t('cards.requests'), children: <CardLimitRequests /> }]
            : []),
          ...(mayListCards ? [{ key: 'cards', label: t('cards.cards'), children: <CardsTab /> }] : []),
          ...(mayListSuspense ? [{ key: 'suspense', label: t('cards.suspense'), children: <SuspenseTab /> }] : []),
        ]}
      />
    </>
  );
}
