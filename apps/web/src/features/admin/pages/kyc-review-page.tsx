import { KYC_REVIEW_STEPS, type KycReviewStep, type OpsKycSubmission } from '@meridian/contracts/kyc';
import {
  Button,
  Card,
  Col,
  Descriptions,
  Empty,
  Form,
  Input,
  Modal,
  Popconfirm,
  Row,
  Select,
  Space,
  Table,
  Tag,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { approveDescriptorOf, rejectDescriptorOf, useApproveKyc, useRejectKyc } from '../api/decide-kyc.ts';
import { useKycSubmission } from '../api/show-kyc-submission.ts';
import { AdminSpinner } from '../components/admin-spinner.tsx';
import { DocumentViewer } from '../components/document-viewer.tsx';
import { useMayCall } from '../components/operator-context.tsx';
import { PageTitle } from '../components/page-title.tsx';
import { QueryError } from '../components/query-error.tsx';
import { SlaTimer } from '../components/sla-timer.tsx';
import { ADMIN_PATHS } from '../lib/admin-paths.ts';
import { flattenSubmitted } from '../lib/flatten-submitted.ts';
import { fieldLabel, fieldOfPath, valueLabel } from '../lib/labels.ts';
import { formatDateTime } from '../lib/time.ts';

/** Reasons a reviewer picks from (the text sent is the chosen reason in the operator's language, then the details). */
const REJECTION_REASONS = [
  'documentUnreadable',
  'documentExpired',
  'nameMismatch',
  'selfieMismatch',
  'addressProofInvalid',
  'incomplete',
  'other',
] as const;

function stepOf(value: string | null): KycReviewStep {
  return KYC_REVIEW_STEPS.find((step) => step === value) ?? 'basic';
}

/** The typed data of the step under review, as label/value lines. */
function submittedDataOf(submission: OpsKycSubmission, step: KycReviewStep): unknown {
  switch (step) {
    case 'investor':
      return submission.investor?.submitted;
    case 'aml':
      return submission.aml;
    case 'qualified':
      return submission.qualified?.submitted;
    default:
      return submission.submitted;
  }
}

/** The rejection modal: a reason from the list plus free text, joined into the text shown to the user. */
function RejectModal(props: {
  open: boolean;
  isPending: boolean;
  onCancel: () => void;
  onReject: (reason: string) => Promise<void>;
}) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<{ reason: (typeof REJECTION_REASONS)[number]; details?: string }>();
  const submit = async () => {
    const { reason, details } = await form.validateFields();
    const label = t(`rejectionReasons.${reason}`);
    const text = details?.trim() ? `${label}: ${details.trim()}` : label;
    try {
      await props.onReject(text);
    } catch {
      // Shown by the HTTP client.
    }
  };
  return (
    <Modal
      open={props.open}
      title={t('kyc.rejectTitle')}
      okText={t('kyc.reject')}
      cancelText={t('common.cancel')}
      okButtonProps={{ danger: true, loading: props.isPending }}
      onOk={() => void submit()}
      onCancel={props.onCancel}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item
          name="reason"
          label={t('kyc.rejectReason')}
          rules={[{ required: true, message: t('common.required') }]}
        >
          <Select options={REJECTION_REASONS.map((value) => ({ value, label: t(`rejectionReasons.${value}`) }))} />
        </Form.Item>
        <Form.Item
          name="details"
          label={t('kyc.rejectDetails')}
          dependencies={['reason']}
          rules={[
            ({ getFieldValue }) => ({
              required: getFieldValue('reason') === 'other',
              whitespace: true,
              message: t('common.required'),
            }),
            { max: 400, message: t('common.tooLong', { max: 400 }) },
          ]}
        >
          <Input.TextArea rows={3} maxLength={400} showCount />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * `/admin/kyc/:userId?step=`: the step's typed data beside its documents (images inline, PDFs in a
 * frame), the SLA timer since submission, earlier decisions, and approve / reject with a reason.
 */
export function KycReviewPage() {
  const { t, i18n } = useTranslation('admin');
  const navigate = useNavigate();
  const { userId = '' } = useParams();
  const [searchParams] = useSearchParams();
  const step = stepOf(searchParams.get('step'));
  const submission = useKycSubmission(userId);
  const approve = useApproveKyc();
  const reject = useRejectKyc();
  const mayApprove = useMayCall(approveDescriptorOf(step));
  const mayReject = useMayCall(rejectDescriptorOf(step));
  const [isRejectOpen, setRejectOpen] = useState(false);
  const backToQueue = () => void navigate(ADMIN_PATHS.kyc);

  if (submission.isPending) return <AdminSpinner />;
  if (submission.isError) return <QueryError error={submission.error} onRetry={() => void submission.refetch()} />;
  const data = submission.data;
  // Document ids are shown as the documents themselves (the panel beside), not as lines.
  const lines = flattenSubmitted(submittedDataOf(data, step)).filter((line) => !line.path.startsWith('documents.'));

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
      <PageTitle
        extra={
          <Space>
            <SlaTimer submittedAt={data.submittedAt} dueAt={data.expectedDecisionAt} />
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
        }
      >
        {t('kyc.reviewTitle', { step: t(`steps.${step}`), who: data.email ?? data.userId })}
      </PageTitle>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={10}>
          <Card title={t('kyc.submittedData')}>
            <Descriptions column={1} size="small" bordered style={{ marginBottom: 16 }}>
              <Descriptions.Item label={t('users.userId')}>{data.userId}</Descriptions.Item>
              <Descriptions.Item label={t('kyc.submittedAt')}>
                {formatDateTime(data.submittedAt, i18n.language)}
              </Descriptions.Item>
              <Descriptions.Item label={t('kyc.dueAt')}>
                {formatDateTime(data.expectedDecisionAt, i18n.language)}
              </Descriptions.Item>
              <Descriptions.Item label={t('common.status')}>
                <Tag>{t(`kycStatus.${data.status}`, { defaultValue: String(data.status) })}</Tag>
              </Descriptions.Item>
            </Descriptions>
            {lines.length === 0 ? (
              <Empty description={t('kyc.noData')} />
            ) : (
              <Descriptions column={1} size="small" bordered>
                {lines.map((line) => (
                  <Descriptions.Item key={line.path} label={fieldLabel(t, line.path)}>
                    {valueLabel(t, i18n.language, fieldOfPath(line.path), line.text)}
                  </Descriptions.Item>
                ))}
              </Descriptions>
            )}
          </Card>
        </Col>
        <Col xs={24} xl={14}>
          <Card title={t('kyc.documents')}>
            <DocumentViewer documents={data.documents} />
          </Card>
        </Col>
        <Col span={24}>
          <Card title={t('kyc.decisions')}>
            <Table
              rowKey={(row) => `${row.createdAt}-${row.subject}-${row.decision}`}
              size="small"
              pagination={false}
              dataSource={data.decisions}
              locale={{ emptyText: t('common.none') }}
              columns={[
                {
                  title: t('common.time'),
                  dataIndex: 'createdAt',
                  render: (at: string) => formatDateTime(at, i18n.language),
                },
                { title: t('kyc.subject'), dataIndex: 'subject' },
                {
                  title: t('kyc.decision'),
                  dataIndex: 'decision',
                  render: (decision: 'approve' | 'reject') => (
                    <Tag color={decision === 'approve' ? 'green' : 'red'}>{t(`decisionKinds.${decision}`)}</Tag>
                  ),
                },
                { title: t('common.operator'), dataIndex: 'operatorEmail' },
                { title: t('common.reason'), dataIndex: 'reason', render: (reason: string | null) => reason ?? '—' },
              ]}
            />
          </Card>
        </Col>
      </Row>
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
