import { type BasicKycDraft, type BasicKycState, KYC_STATUS, requiredDocumentKinds } from '@meridian/contracts/kyc';
import { ID_TYPES, type IdType } from '@meridian/contracts/kyc-rules';
import { Button, Card, Flex, Form, Result, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../../config/paths.ts';
import { maskIdNumber } from '../../../lib/kyc-identity.ts';
import { useBasicKyc } from '../api/basic-kyc.ts';
import { BasicAddressFields, BasicIdFields, BasicPersonalFields } from '../components/basic-kyc-fields.tsx';
import { BasicKycReview } from '../components/basic-kyc-review.tsx';
import { DocumentUploads } from '../components/document-upload.tsx';
import { IdentityShell } from '../components/identity-shell.tsx';
import { StepActions, StepBar } from '../components/step-frame.tsx';
import { useBasicKycSteps } from '../hooks/use-basic-kyc-steps.ts';
import { BASIC_STEPS, DOCUMENTS_STEP, REVIEW_STEP } from '../lib/basic-kyc-steps.ts';
import { formatDateTime } from '../lib/format-time.ts';
import { useIdentitySearch } from '../lib/use-identity-search.ts';
import './identity-pages.css';

/**
 * `/identity/basic`: basic identity verification (docs/kyc.md "Web"; the rules of docs/kyc.md "Basic KYC (level 1)").
 */
export function BasicKycPage() {
  return (
    <IdentityShell>
      <BasicKyc />
    </IdentityShell>
  );
}

function BasicKyc() {
  const { t, i18n } = useTranslation('kyc');
  const state = useBasicKyc();
  const { returnTo, withSearch } = useIdentitySearch();
  if (state.isPending || !state.data) return <Skeleton active />;
  const data = state.data;
  const backLinks = (
    <Flex gap={8} wrap justify="center">
      <Link to={withSearch(pathTo('Identity'))}>
        <Button data-testid="kyc-to-overview">{t('basic.toOverview')}</Button>
      </Link>
      {returnTo && (
        <Link to={returnTo}>
          <Button type="primary" data-testid="kyc-return">
            {t('basic.continueBack')}
          </Button>
        </Link>
      )}
    </Flex>
  );
  if (data.status === KYC_STATUS.UNDER_REVIEW) {
    return (
      <Result
        data-testid="kyc-under-review"
        status="info"
        title={t('basic.underReviewTitle')}
        subTitle={
          data.expectedDecisionAt
            ? t('basic.underReviewText', { time: formatDateTime(data.expectedDecisionAt, i18n.language) })
            : undefined
        }
        extra={backLinks}
      />
    );
  }
  if (data.status === KYC_STATUS.VERIFIED) {
    const idNumber = typeof data.submitted?.idNumber === 'string' ? maskIdNumber(data.submitted.idNumber) : '';
    return (
      <Result
        data-testid="kyc-verified"
        status="success"
        title={t('basic.verifiedTitle')}
        subTitle={idNumber}
        extra={backLinks}
      />
    );
  }
  return <BasicKycForm state={data} />;
}

function BasicKycForm({ state }: { state: BasicKycState }) {
  const { t } = useTranslation('kyc');
  const [form] = Form.useForm<BasicKycDraft>();
  const [documents, setDocuments] = useState(state.documents);
  const idType = Form.useWatch('idType', { form, preserve: true }) as IdType | undefined;
  const neededKinds = requiredDocumentKinds(idType && ID_TYPES.includes(idType) ? idType : 'passport');
  const missingKinds = neededKinds.filter((kind) => !documents.some((document) => document.kind === kind));
  const { current, setCurrent, error, isBusy, saveAndContinue, submit } = useBasicKycSteps(form, missingKinds);

  return (
    <Card data-testid="kyc-basic-form">
      <StepBar
        current={current}
        titles={BASIC_STEPS.map((step) => t(`basic.steps.${step.key}`))}
        failedReason={state.status === KYC_STATUS.FAILED ? state.message : null}
      />
      <Form form={form} layout="vertical" requiredMark={false} initialValues={state.draft} className="kyc-form">
        {/* Every step's items stay mounted (hidden), so that each is validated and saved with the draft. */}
        <BasicPersonalFields isHidden={current !== 0} />
        <BasicIdFields isHidden={current !== 1} idType={idType} />
        <BasicAddressFields isHidden={current !== 2} />
      </Form>

      {current === DOCUMENTS_STEP && (
        <div data-testid="kyc-documents">
          <Typography.Paragraph type="secondary">{t('basic.documentsHint')}</Typography.Paragraph>
          <DocumentUploads
            kinds={neededKinds}
            labelOf={(kind) => t(`basic.documents.${kind}`)}
            documents={documents}
            onChange={setDocuments}
          />
        </div>
      )}

      {current === REVIEW_STEP && <BasicKycReview form={form} neededKinds={neededKinds} documents={documents} />}

      <StepActions
        current={current}
        isReviewStep={current === REVIEW_STEP}
        isBusy={isBusy}
        isNextBusy={isBusy}
        error={error}
        nextLabel={t('basic.saveContinue')}
        submitLabel={t('basic.submit')}
        onPrevious={() => setCurrent(current - 1)}
        onNext={() => void saveAndContinue()}
        onSubmit={() => void submit()}
      />
    </Card>
  );
}
