import type { KycReviewStep, OpsKycSubmission } from '@meridian/contracts/kyc';
import { Card, Descriptions, Empty, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { reviewLinesOf } from '../lib/kyc-review.ts';
import { fieldLabel, fieldOfPath, valueLabel } from '../lib/labels.ts';
import { formatDateTime } from '../lib/time.ts';

/** The submission's facts (user, times, status) and the step's typed data as labelled lines. */
export function KycSubmittedData({ submission, step }: { submission: OpsKycSubmission; step: KycReviewStep }) {
  const { t, i18n } = useTranslation('admin');
  const lines = reviewLinesOf(submission, step);
  return (
    <Card title={t('kyc.submittedData')}>
      <Descriptions column={1} size="small" bordered style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('users.userId')}>{submission.userId}</Descriptions.Item>
        <Descriptions.Item label={t('kyc.submittedAt')}>
          {formatDateTime(submission.submittedAt, i18n.language)}
        </Descriptions.Item>
        <Descriptions.Item label={t('kyc.dueAt')}>
          {formatDateTime(submission.expectedDecisionAt, i18n.language)}
        </Descriptions.Item>
        <Descriptions.Item label={t('common.status')}>
          <Tag>{t(`kycStatus.${submission.status}`, { defaultValue: String(submission.status) })}</Tag>
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
  );
}

/** The earlier decisions on the user's KYC: time, subject, decision, operator and reason. */
export function KycDecisions({ decisions }: { decisions: OpsKycSubmission['decisions'] }) {
  const { t, i18n } = useTranslation('admin');
  return (
    <Card title={t('kyc.decisions')}>
      <Table
        rowKey={(row) => `${row.createdAt}-${row.subject}-${row.decision}`}
        size="small"
        pagination={false}
        dataSource={decisions}
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
  );
}
