import { KYC_STATUS, type ResidenceChangeState } from '@meridian/contracts/kyc';
import { toLocale } from '@meridian/contracts/locale';
import { validationMessage } from '@meridian/contracts/validation';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Form, Input, Result, Select, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isSuccess } from '../../../lib/api-client.ts';
import { kycKeys, useBasicKyc } from '../api/basic-kyc.ts';
import { useCountries } from '../../../lib/get-countries.ts';
import { reportResidenceChange, residenceKey, useResidenceChange } from '../api/residence.ts';
import { DocumentUpload } from '../components/document-upload.tsx';
import { IdentityShell } from '../components/identity-shell.tsx';
import { StepActions, StepBar } from '../components/step-frame.tsx';
import { NeedsEarlierStep, StepLinks, UnderReviewResult } from '../components/step-links.tsx';
import { formatDateTime } from '../lib/format-time.ts';
import { applyNestedServerErrors } from '../lib/server-field-errors.ts';
import { useStepState } from '../hooks/use-step-state.ts';

/** The form's fields, as `POST user/identity/residence` takes them. */
interface ResidenceValues {
  residence?: string;
  address?: string;
  proofOfAddressDate?: string;
}
const FORM_ROOTS = ['residence', 'address', 'proofOfAddressDate'] as const;

/**
 * `/identity/residence` (docs/kyc.md "Change of residence"): a verified user reports a
 * new country of residence and address with a new proof of address. While it is reviewed the
 * user keeps their level; when an approved change moves the country, a new tax form is due within
 * 30 days (the tax page and the overview say by when).
 */
export function ResidencePage() {
  return (
    <IdentityShell>
      <Residence />
    </IdentityShell>
  );
}

function Residence() {
  const basic = useBasicKyc();
  const isLevelOne = basic.data?.status === KYC_STATUS.VERIFIED;
  const change = useResidenceChange(isLevelOne);
  const [isReporting, setIsReporting] = useState(false);
  if (basic.isPending) return <Skeleton active />;
  if (!isLevelOne) return <NeedsEarlierStep step="basic" />;
  if (change.isPending || !change.data) return <Skeleton active />;
  const current = change.data.current;
  if (current?.status === KYC_STATUS.UNDER_REVIEW)
    return (
      <Card data-testid="residence-under-review">
        <UnderReviewResult expectedDecisionAt={current.expectedDecisionAt} />
        <StepLinks />
      </Card>
    );
  if (current?.status === KYC_STATUS.VERIFIED && !isReporting)
    return <ResidenceApplied current={current} onReportAgain={() => setIsReporting(true)} />;
  return (
    <ResidenceForm
      onFile={basic.data?.submitted ?? {}}
      failedReason={current?.status === KYC_STATUS.FAILED ? current.message : null}
      onDone={() => setIsReporting(false)}
    />
  );
}

/** The last change was approved: it is the residence on file now; a new tax form may be due. */
function ResidenceApplied({
  current,
  onReportAgain,
}: {
  current: NonNullable<ResidenceChangeState['current']>;
  onReportAgain: () => void;
}) {
  const { t, i18n } = useTranslation('kyc');
  return (
    <Card data-testid="residence-applied">
      <Result status="success" title={t('residence.appliedTitle')} style={{ paddingBottom: 8 }} />
      {current.taxFormDueAt && (
        <Alert
          type="warning"
          showIcon
          data-testid="residence-tax-due"
          title={t('residence.taxFormDue', { time: formatDateTime(current.taxFormDueAt, i18n.language) })}
          style={{ marginBottom: 16 }}
        />
      )}
      <StepLinks
        extra={
          <Button onClick={onReportAgain} data-testid="residence-report-again">
            {t('residence.reportAgain')}
          </Button>
        }
      />
    </Card>
  );
}

function ResidenceForm({
  onFile,
  failedReason,
  onDone,
}: {
  /** The verified identity's submission (its residence and address are the ones on file). */
  onFile: Record<string, unknown>;
  failedReason: string | null;
  onDone: () => void;
}) {
  const { t, i18n } = useTranslation('kyc');
  const locale = toLocale(i18n.language);
  const queryClient = useQueryClient();
  const countries = useCountries();
  const [form] = Form.useForm<ResidenceValues>();
  const { current, setCurrent, error, setError, isBusy, setIsBusy } = useStepState();
  const [hasProof, setHasProof] = useState(false);
  const required = { required: true, message: validationMessage('validation.required', locale) };
  const countryOptions = (countries.data ?? []).map((country) => ({
    value: country.code,
    label: locale === 'zh-HK' ? country.nameZh : country.nameEn,
  }));
  const countryName = (code: unknown) =>
    countryOptions.find((option) => option.value === code)?.label ?? (typeof code === 'string' ? code : '');

  const next = async () => {
    setError(null);
    try {
      await form.validateFields();
    } catch {
      return;
    }
    if (!hasProof) {
      setError(t('basic.missingDocument'));
      return;
    }
    setCurrent(1);
  };

  const submit = async () => {
    setError(null);
    setIsBusy(true);
    const values = form.getFieldsValue(true) as ResidenceValues;
    const response = await reportResidenceChange({
      residence: values.residence ?? '',
      address: values.address ?? '',
      proofOfAddressDate: values.proofOfAddressDate ?? '',
    });
    setIsBusy(false);
    if (isSuccess(response)) {
      queryClient.setQueryData(residenceKey, response.content);
      void queryClient.invalidateQueries({ queryKey: kycKeys.basic });
      onDone();
      return;
    }
    const { message, failing } = applyNestedServerErrors(form, response, FORM_ROOTS);
    setError(message ?? (failing.length > 0 ? null : response.message));
    if (failing.length > 0) setCurrent(0);
  };

  const values = form.getFieldsValue(true) as ResidenceValues;
  return (
    <Card data-testid="kyc-residence-form">
      <StepBar
        current={current}
        titles={[t('residence.steps.details'), t('residence.steps.review')]}
        failedReason={failedReason}
      />
      <Typography.Paragraph type="secondary">{t('residence.intro')}</Typography.Paragraph>
      <Descriptions column={1} size="small" bordered className="kyc-review-list" style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('residence.onFileCountry')}>{countryName(onFile.residence)}</Descriptions.Item>
        <Descriptions.Item label={t('residence.onFileAddress')}>
          {typeof onFile.address === 'string' ? onFile.address : ''}
        </Descriptions.Item>
      </Descriptions>
      <Form<ResidenceValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        className="kyc-form"
        style={{ display: current === 0 ? undefined : 'none' }}
      >
        <Form.Item label={t('basic.fields.residence')} name="residence" rules={[required]}>
          <Select
            showSearch
            optionFilterProp="label"
            options={countryOptions}
            loading={countries.isPending}
            data-testid="residence-country"
          />
        </Form.Item>
        <Form.Item label={t('basic.fields.address')} name="address" rules={[required]}>
          <Input.TextArea autoSize={{ minRows: 2 }} maxLength={200} data-testid="residence-address" />
        </Form.Item>
        <Form.Item label={t('basic.fields.proofOfAddressDate')} name="proofOfAddressDate" rules={[required]}>
          <Input type="date" data-testid="residence-proof-date" />
        </Form.Item>
        <DocumentUpload
          kind="proofOfAddress"
          label={t('basic.documents.proofOfAddress')}
          current={undefined}
          onUploaded={() => setHasProof(true)}
        />
      </Form>
      {current === 1 && (
        <div data-testid="kyc-review">
          <Typography.Paragraph>{t('residence.reviewHint')}</Typography.Paragraph>
          <Descriptions column={1} size="small" bordered className="kyc-review-list">
            <Descriptions.Item label={t('basic.fields.residence')}>{countryName(values.residence)}</Descriptions.Item>
            <Descriptions.Item label={t('basic.fields.address')}>{values.address ?? ''}</Descriptions.Item>
            <Descriptions.Item label={t('basic.fields.proofOfAddressDate')}>
              {values.proofOfAddressDate ?? ''}
            </Descriptions.Item>
          </Descriptions>
        </div>
      )}
      <StepActions
        current={current}
        isReviewStep={current === 1}
        isBusy={isBusy}
        error={error}
        nextLabel={t('common.next')}
        submitLabel={t('residence.submit')}
        onPrevious={() => setCurrent(0)}
        onNext={() => void next()}
        onSubmit={() => void submit()}
      />
    </Card>
  );
}
