import type { KycReviewStep, OpsKycSubmission } from '@meridian/contracts/kyc';
import { Button, Popconfirm, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { approveDescriptorOf, rejectDescriptorOf, useApproveKyc, useRejectKyc } from '../api/decide-kyc.ts';
import { ADMIN_PATHS } from '../lib/admin-paths.ts';
import { RejectModal } from './kyc-reject-modal.tsx';
import { useMayCall } from './operator-context.tsx';
import { SlaTimer } from './sla-timer.tsx';

/**
 * The KYC review page's actions: the SLA timer, Reject (a reason modal) and Approve (a confirmation),
 * each shown when the operator's role may call it; a decision goes back to the queue.
 */
export function KycDecisionActions({
  userId,
  step,
  submission,
}: {
  /** The user of the page's address (`/admin/kyc/:userId`), the one the decision is sent for. */
  userId: string;
  step: KycReviewStep;
  submission: OpsKycSubmission;
}) {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const approve = useApproveKyc();
  const reject = useRejectKyc();
  const mayApprove = useMayCall(approveDescriptorOf(step));
  const mayReject = useMayCall(rejectDescriptorOf(step));
  const [isRejectOpen, setRejectOpen] = useState(false);
  const backToQueue = () => void navigate(ADMIN_PATHS.kyc);

  const onApprove = async () => {
    try {
      await approve.mutateAsync({ userId, step });
      backToQueue();
    } catch {
      // Shown by the HTTP client (e.g. decided meanwhile by someone else).
    }
  };

  return (
    <>
      <Space>
        <SlaTimer submittedAt={submission.submittedAt} dueAt={submission.expectedDecisionAt} />
        {mayReject && (
          <Button danger onClick={() => setRejectOpen(true)}>
            {t('kyc.reject')}
          </Button>
        )}
        {mayApprove && (
          <Popconfirm
            title={t('kyc.approveConfirm')}
            okText={t('kyc.approveYes')}
            cancelText={t('common.cancel')}
            onConfirm={onApprove}
          >
            <Button type="primary" loading={approve.isPending}>
              {t('kyc.approve')}
            </Button>
          </Popconfirm>
        )}
      </Space>
      <RejectModal
        open={isRejectOpen}
        isPending={reject.isPending}
        onCancel={() => setRejectOpen(false)}
        onReject={async (reason) => {
          await reject.mutateAsync({ userId, step, reason });
          setRejectOpen(false);
          backToQueue();
        }}
      />
    </>
  );
}
