import { opsCardEndpoints } from '@meridian/contracts/card-ops';
import {
  OPEN_SUPPORT_REQUEST_STATUSES,
  type OpsSupportRequest,
  SUPPORT_REPLY_LENGTH_MAX,
  SUPPORT_REQUEST_STATUSES,
  type SupportRequestStatus,
  opsSupportEndpoints,
} from '@meridian/contracts/support';
import { Alert, Button, Space, Table, Tabs, type TabsProps, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { ApiError } from '../../../lib/api-client.ts';
import { useDecideSupportRequest, useReplySupportRequest, useSupportRequests } from '../api/support-requests.ts';
import { CardLimitRequests } from '../components/card-limit-requests.tsx';
import { useMayCall } from '../components/operator-context.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { QueryError } from '../components/query-error.tsx';
import { ReasonModal } from '../components/reason-modal.tsx';
import { StatusFilter } from '../components/status-filter.tsx';
import { adminUserPath } from '../lib/admin-paths.ts';
import { formatDateTime } from '../lib/time.ts';
import { usePaging } from '../lib/use-paging.ts';

const ALL = 'all';
const STATUS_COLOURS: Record<SupportRequestStatus, string> = {
  PENDING: 'gold',
  IN_PROGRESS: 'blue',
  DONE: 'green',
  REJECTED: 'red',
};

/** What the operator is about to do with a request (the modal asks for the reply). */
type PendingAction = { kind: 'reply' | 'DONE' | 'REJECTED'; request: OpsSupportRequest };

function isOpen(status: SupportRequestStatus): boolean {
  return (OPEN_SUPPORT_REQUEST_STATUSES as readonly string[]).includes(status);
}

/**
 * Account-deletion requests: open ones first (oldest first), then decided ones. Support (and
 * compliance) reply, which moves a request to In progress; compliance marks it Done — which closes
 * the account, refused while the user still holds anything (the refusal stays shown above the
 * table) — or Rejected. Every reply reaches the user's message centre.
 */
function DeletionRequestsTab() {
  const { t, i18n } = useTranslation('admin');
  const [status, setStatus] = useState<SupportRequestStatus | typeof ALL>(ALL);
  const paging = usePaging();
  const requests = useSupportRequests({
    pageID: paging.pageID,
    pageSize: paging.pageSize,
    ...(status !== ALL && { status }),
  });
  const mayReply = useMayCall(opsSupportEndpoints.replySupportRequest);
  const mayDecide = useMayCall(opsSupportEndpoints.decideSupportRequest);
  const reply = useReplySupportRequest();
  const decide = useDecideSupportRequest();
  const [action, setAction] = useState<PendingAction | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);

  const submit = async (text: string) => {
    if (!action) return;
    setRefusal(null);
    try {
      if (action.kind === 'reply') await reply.mutateAsync({ id: action.request.id, reply: text });
      else await decide.mutateAsync({ id: action.request.id, status: action.kind, reply: text });
      setAction(null);
    } catch (failure) {
      // The closure's refusal (111: what the user still holds; 302: frozen or closed) stays in view.
      if (failure instanceof ApiError && [111, 302].includes(failure.statusCode)) {
        setRefusal(failure.message);
        setAction(null);
        return;
      }
      throw failure;
    }
  };

  const titles = {
    reply: t('support.replyTitle'),
    DONE: t('support.doneTitle'),
    REJECTED: t('support.rejectTitle'),
  };
  const okTexts = { reply: t('support.reply'), DONE: t('support.markDone'), REJECTED: t('support.reject') };

  return (
    <>
      <Space style={{ marginBottom: 16 }}>
        <StatusFilter
          value={status}
          statuses={SUPPORT_REQUEST_STATUSES}
          all={ALL}
          labelOf={(value) => t(`support.statuses.${value}`)}
          onChange={(value) => {
            setStatus(value);
            paging.reset();
          }}
        />
      </Space>
      {refusal && (
        <Alert
          type="error"
          showIcon
          closable
          onClose={() => setRefusal(null)}
          style={{ marginBottom: 16 }}
          title={t('support.closureRefused')}
          description={refusal}
          data-testid="support-refusal"
        />
      )}
      {requests.isError && <QueryError error={requests.error} onRetry={() => void requests.refetch()} />}
      <Table<OpsSupportRequest>
        rowKey="id"
        loading={requests.isFetching}
        dataSource={requests.data?.list}
        pagination={paging.pagination(requests.data?.totalCount)}
        scroll={{ x: 1000 }}
        columns={[
          {
            title: t('common.time'),
            dataIndex: 'createdAt',
            width: 150,
            render: (at: string) => formatDateTime(at, i18n.language),
          },
          {
            title: t('common.user'),
            dataIndex: 'userId',
            width: 200,
            render: (userId: string, row) => (
              <Space orientation="vertical" size={0}>
                <Link to={adminUserPath(userId)}>{row.email ?? userId}</Link>
              </Space>
            ),
          },
          { title: t('common.reason'), dataIndex: 'reason', width: 200 },
          {
            title: t('common.status'),
            dataIndex: 'status',
            render: (value: SupportRequestStatus, row) => (
              <Space orientation="vertical" size={2}>
                <Tag color={STATUS_COLOURS[value]}>{t(`support.statuses.${value}`)}</Tag>
                {row.reply && <span>{t('support.replied', { reply: row.reply })}</span>}
                {row.repliedBy && row.repliedAt && !row.decidedBy && (
                  <span>
                    {t('support.by', { who: row.repliedBy, at: formatDateTime(row.repliedAt, i18n.language) })}
                  </span>
                )}
                {row.decidedBy && row.decidedAt && (
                  <span>
                    {t('support.by', { who: row.decidedBy, at: formatDateTime(row.decidedAt, i18n.language) })}
                  </span>
                )}
              </Space>
            ),
          },
          {
            title: t('common.actions'),
            key: 'actions',
            width: 200,
            render: (_, row) =>
              isOpen(row.status) && (
                <Space wrap>
                  {mayReply && (
                    <Button size="small" onClick={() => setAction({ kind: 'reply', request: row })}>
                      {t('support.reply')}
                    </Button>
                  )}
                  {mayDecide && (
                    <Button
                      size="small"
                      type="primary"
                      danger
                      onClick={() => setAction({ kind: 'DONE', request: row })}
                    >
                      {t('support.markDone')}
                    </Button>
                  )}
                  {mayDecide && (
                    <Button size="small" onClick={() => setAction({ kind: 'REJECTED', request: row })}>
                      {t('support.reject')}
                    </Button>
                  )}
                </Space>
              ),
          },
        ]}
      />
      <ReasonModal
        open={action !== null}
        title={action ? `${titles[action.kind]} · ${action.request.email ?? action.request.userId}` : ''}
        okText={action ? okTexts[action.kind] : ''}
        label={t('support.replyLabel', { max: SUPPORT_REPLY_LENGTH_MAX })}
        isDanger={action?.kind === 'DONE'}
        isPending={reply.isPending || decide.isPending}
        onCancel={() => setAction(null)}
        onSubmit={submit}
      />
    </>
  );
}

/**
 * `/admin/support` (docs/back-office.md "Support requests", each answered with a status and a
 * reply): account-deletion requests, and the card limit-change requests (the cards page's
 * component) as a second tab; PRO applications have their own page (`pro-applications-page.tsx`). Each
 * tab shows only when the role may make its list call.
 */
export function SupportPage() {
  const { t } = useTranslation('admin');
  const mayListLimitRequests = useMayCall(opsCardEndpoints.listLimitRequests);
  const items: NonNullable<TabsProps['items']> = [
    { key: 'deletion', label: t('support.deletionTab'), children: <DeletionRequestsTab /> },
    ...(mayListLimitRequests
      ? [{ key: 'card-limits', label: t('support.cardLimitsTab'), children: <CardLimitRequests /> }]
      : []),
  ];
  return (
    <div data-testid="support-page">
      <PageTitle>{t('support.title')}</PageTitle>
      <Tabs items={items} />
    </div>
  );
}
