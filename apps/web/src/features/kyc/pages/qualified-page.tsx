import { KYC_STATUS, type KycDocument, QUALIFIED_VALIDITY_MONTHS, type QualifyState } from '@meridian/contracts/kyc';
import { Button, Card, Form, Result, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client.ts';
import { useBasicKyc } from '../api/basic-kyc.ts';
import { useKycLevel } from '../api/kyc-level.ts';
import { useQualification } from '../api/qualification.ts';
import { DocumentUpload } from '../components/document-upload.tsx';
import { IdentityShell } from '../components/identity-shell.tsx';
import { QualifiedDeclarationFields, QualifiedReview } from '../components/qualified-fields.tsx';
import { StepActions, StepBar } from '../components/step-frame.tsx';
import { NeedsEarlierStep, StepLinks, UnderReviewResult } from '../components/step-links.tsx';
import { useQualifiedSteps } from '../hooks/use-qualified-steps.ts';
import { formatDateTime } from '../lib/format-time.ts';
import { isStepOpen } from '../lib/kyc-view.ts';
import { QUALIFIED_STEPS, type QualifyValues, qualifyAmountOf } from '../lib/qualified-form.ts';
import './identity-pages.css';

/** KYC_STATUS 4: a qualified-investor status past its 12 months. */
const EXPIRED = 4;

/**
 * `/identity/qualified` (also `/identity/qualify`, the route the 143 answer names): the Hong Kong
 * professional-investor declaration — an individual's portfolio of at least HK$8,000,000 or a
 * corporation's total assets of at least HK$40,000,000 — with evidence files; reviewed, valid 12
 * months. Needs level 2.
 */
export function QualifiedPage() {
  return (
    <IdentityShell>
      <Qualified />
    </IdentityShell>
  );
}

function Qualified() {
  const { t, i18n } = useTranslation('kyc');
  const basic = useBasicKyc();
  // Open at level 2 as the server's gate says (docs/decisions/0011-verification-level.md); a 143 says the same.
  const kycLevel = useKycLevel();
  const isLevelTwo = isStepOpen('qualified', kycLevel.level);
  const qualification = useQualification(isLevelTwo);
  const [isApplying, setIsApplying] = useState(false);
  if (kycLevel.isPending || basic.isPending) return <Skeleton active />;
  if (!isLevelTwo || (qualification.error instanceof ApiError && qualification.error.statusCode === 143))
    return <NeedsEarlierStep step={kycLevel.level === 0 ? 'basic' : 'investor'} />;
  if (qualification.isPending) return <Skeleton active />;
  if (!qualification.data) return <Skeleton active />;
  const data = qualification.data;
  if (data.status === KYC_STATUS.UNDER_REVIEW)
    return <UnderReviewResult expectedDecisionAt={data.expectedDecisionAt} />;
  if (data.status === KYC_STATUS.VERIFIED)
    return (
      <Result
        data-testid="kyc-verified"
        status="success"
        title={t('qualified.verifiedTitle')}
        subTitle={
          data.validUntil
            ? t('qualified.validUntil', { time: formatDateTime(data.validUntil, i18n.language) })
            : undefined
        }
        extra={<StepLinks />}
      />
    );
  if (data.status === EXPIRED && !isApplying)
    return (
      <Result
        data-testid="kyc-expired"
        status="warning"
        title={t('qualified.expiredTitle')}
        extra={
          <StepLinks
            extra={
              <Button type="primary" onClick={() => setIsApplying(true)}>
                {t('qualified.applyAgain')}
              </Button>
            }
          />
        }
      />
    );
  return <QualifiedForm state={data} documents={basic.data?.documents ?? []} />;
}

function QualifiedForm({ state, documents: initialDocuments }: { state: QualifyState; documents: KycDocument[] }) {
  const { t } = useTranslation('kyc');
  const [form] = Form.useForm<QualifyValues>();
  const [evidence, setEvidence] = useState(initialDocuments.filter((each) => each.kind === 'qualifiedEvidence'));
  const { current, setCurrent, error, isBusy, next, submit } = useQualifiedSteps(form, evidence.length > 0);
  const type = Form.useWatch('type', { form, preserve: true });

  return (
    <Card data-testid="kyc-qualified-form">
      <StepBar
        current={current}
        titles={QUALIFIED_STEPS.map((step) => t(`qualified.steps.${step}`))}
        failedReason={state.status === KYC_STATUS.FAILED ? state.message : null}
      />
      {current === 0 && (
        <Typography.Paragraph type="secondary">
          {t('qualified.intro', { months: QUALIFIED_VALIDITY_MONTHS })}
        </Typography.Paragraph>
      )}
      <Form<QualifyValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        className="kyc-form"
        initialValues={{ type: 'individual' }}
      >
        <QualifiedDeclarationFields isShown={current === 0} type={type} />
      </Form>

      {current === 1 && (
        <div data-testid="kyc-documents">
          <Typography.Paragraph type="secondary">{t('qualified.evidenceHint')}</Typography.Paragraph>
          <DocumentUpload
            kind="qualifiedEvidence"
            label={t('qualified.evidence')}
            current={evidence[0]}
            onUploaded={(stored) => setEvidence(stored)}
          />
        </div>
      )}

      {current === 2 && (
        <QualifiedReview
          type={type}
          amount={qualifyAmountOf({ ...(form.getFieldsValue(true) as QualifyValues), type })}
          evidenceNames={evidence.map((each) => each.fileName)}
        />
      )}

      <StepActions
        current={current}
        isReviewStep={current >= 2}
        isBusy={isBusy}
        error={error}
        nextLabel={t('common.next')}
        submitLabel={t('basic.submit')}
        onPrevious={() => setCurrent(current - 1)}
        onNext={() => void next()}
        onSubmit={() => void submit()}
      />
    </Card>
  );
}
