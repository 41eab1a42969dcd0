import {
  SUPPORT_REASON_LENGTH_MAX,
  type SupportRequest,
  type SupportRequestStatus,
  supportEndpoints,
} from '@meridian/contracts/support';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Descriptions, Input, Skeleton, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../../components/page-frame.tsx';
import { RequireUser } from '../../../components/require-user.tsx';
import { useSecuredAction } from '../../../hooks/use-secured-action.ts';
import { deletionRequestKey, useDeletionRequest } from '../api/get-deletion-request.ts';
import { canSendDeletionRequest, isDeletionRequestOpen } from '../lib/security-rules.ts';

/** A request time in the reader's language (date and minute). */
function formatSentAt(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

const STATUS_COLOURS: Record<SupportRequestStatus, string> = {
  PENDING: 'gold',
  IN_PROGRESS: 'blue',
  DONE: 'green',
  REJECTED: 'red',
};

/** The latest request: its status, the reason sent, and customer service's reply when there is one. */
function RequestStatus({ request }: { request: SupportRequest }) {
  const { t, i18n } = useTranslation('identity');
  return (
    <Descriptions
      column={1}
      bordered
      size="small"
      style={{ marginBottom: 16 }}
      data-testid="deletion-request"
      title={t('delete.requestTitle')}
    >
      <Descriptions.Item label={t('delete.status')}>
        <Tag color={STATUS_COLOURS[request.status]} data-testid="deletion-status">
          {t(`delete.statuses.${request.status}`)}
        </Tag>
      </Descriptions.Item>
      <Descriptions.Item label={t('delete.sentAt')}>{formatSentAt(request.createdAt, i18n.language)}</Descriptions.Item>
      <Descriptions.Item label={t('delete.reason')}>{request.reason}</Descriptions.Item>
      <Descriptions.Item label={t('delete.reply')}>
        <span data-testid="deletion-reply">{request.reply ?? t('delete.noReply')}</span>
      </Descriptions.Item>
    </Descriptions>
  );
}

/**
 * `/my/security/account/delete`: deleting the account is a request to customer service, sent with a
 * reason after the security check. The page shows the latest request's status and the reply; a
 * new request can be sent only when none is open. Customer service closes the account once it
 * holds nothing (the server refuses while any balance, holding, loan or card remains).
 */
export function DeleteAccountPage() {
  const { t } = useTranslation('identity');
  const queryClient = useQueryClient();
  const state = useDeletionRequest();
  const [isUnderstood, setIsUnderstood] = useState(false);
  const [reason, setReason] = useState('');
  const requestDeletion = useSecuredAction({
    endpoint: supportEndpoints.requestDeletion,
    onSuccess: () => {
      setReason('');
      setIsUnderstood(false);
      void queryClient.invalidateQueries({ queryKey: deletionRequestKey });
    },
  });
  const request = state.data?.request ?? null;
  const isOpen = isDeletionRequestOpen(request);
  return (
    <RequireUser>
      <PageFrame>
        <div className="content-card" data-testid="delete-account-page" style={{ maxWidth: 640 }}>
          <Alert
            type="warning"
            showIcon
            message={t('delete.warningTitle')}
            description={t('delete.warning')}
            style={{ marginBottom: 16 }}
          />
          <Typography.Paragraph>{t('delete.process')}</Typography.Paragraph>
          <Typography.Paragraph>{t('delete.retention')}</Typography.Paragraph>
          {state.isPending && <Skeleton active />}
          {request && <RequestStatus request={request} />}
          {state.isSuccess && !isOpen && (
            <>
              <label htmlFor="deletion-reason" style={{ display: 'block', marginBottom: 8 }}>
                {t('delete.reasonLabel')}
              </label>
              <Input.TextArea
                id="deletion-reason"
                data-testid="deletion-reason"
                value={reason}
                onChange={(event) => setReason(event.target.value)}
                maxLength={SUPPORT_REASON_LENGTH_MAX}
                showCount
                autoSize={{ minRows: 3, maxRows: 8 }}
                style={{ marginBottom: 16 }}
              />
              <Checkbox
                checked={isUnderstood}
                onChange={(event) => setIsUnderstood(event.target.checked)}
                data-testid="delete-understood"
              >
                {t('delete.understood')}
              </Checkbox>
              <div style={{ marginTop: 16 }}>
                <Button
                  danger
                  type="primary"
                  disabled={!canSendDeletionRequest(isUnderstood, reason)}
                  data-testid="delete-submit"
                  onClick={() => requestDeletion.run({ body: { reason: reason.trim() } })}
                >
                  {t('delete.submit')}
                </Button>
              </div>
            </>
          )}
          {isOpen && <Alert type="info" showIcon message={t('delete.openNote')} />}
        </div>
      </PageFrame>
    </RequireUser>
  );
}
