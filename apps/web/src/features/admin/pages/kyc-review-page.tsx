import { Card, Col, Row } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { useKycSubmission } from '../api/show-kyc-submission.ts';
import { AdminSpinner } from '../components/admin-spinner.tsx';
import { DocumentViewer } from '../components/document-viewer.tsx';
import { KycDecisionActions } from '../components/kyc-decision-actions.tsx';
import { KycDecisions, KycSubmittedData } from '../components/kyc-submission-cards.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { QueryError } from '../components/query-error.tsx';
import { stepOf } from '../lib/kyc-review.ts';

/**
 * `/admin/kyc/:userId?step=`: the step's typed data beside its documents (images inline, PDFs in a
 * frame), the SLA timer since submission, earlier decisions, and approve / reject with a reason.
 */
export function KycReviewPage() {
  const { t } = useTranslation('admin');
  const { userId = '' } = useParams();
  const [searchParams] = useSearchParams();
  const step = stepOf(searchParams.get('step'));
  const submission = useKycSubmission(userId);

  if (submission.isPending) return <AdminSpinner />;
  if (submission.isError) return <QueryError error={submission.error} onRetry={() => void submission.refetch()} />;
  const data = submission.data;

  return (
    <>
      <PageTitle extra={<KycDecisionActions userId={userId} step={step} submission={data} />}>
        {t('kyc.reviewTitle', { step: t(`steps.${step}`), who: data.email ?? data.userId })}
      </PageTitle>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={10}>
          <KycSubmittedData submission={data} step={step} />
        </Col>
        <Col xs={24} xl={14}>
          <Card title={t('kyc.documents')}>
            <DocumentViewer documents={data.documents} />
          </Card>
        </Col>
        <Col span={24}>
          <KycDecisions decisions={data.decisions} />
        </Col>
      </Row>
    </>
  );
}
