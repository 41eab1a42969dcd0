import type { TaxState } from '@meridian/contracts/kyc';
import { Alert, Button, Card, Descriptions, Form, Result, Skeleton } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBasicKyc } from '../api/basic-kyc.ts';
import { useCountries } from '../../../lib/get-countries.ts';
import { useKycLevel } from '../api/kyc-level.ts';
import { useTaxState } from '../api/level-two.ts';
import { IdentityShell } from '../components/identity-shell.tsx';
import { StepActions, StepBar } from '../components/step-frame.tsx';
import { NeedsEarlierStep, StepLinks } from '../components/step-links.tsx';
import { TaxFormFields, TaxUsPersonFields } from '../components/tax-fields.tsx';
import { TaxReview } from '../components/tax-review.tsx';
import { useTaxSteps } from '../hooks/use-tax-steps.ts';
import { formatDateTime } from '../lib/format-time.ts';
import { TAX_STEPS, taxFormKind, type TaxPageValues } from '../lib/tax-form.ts';
import { isStepOpen } from '../lib/kyc-view.ts';
import './identity-pages.css';

/**
 * `/identity/tax`: the US-person questions decide the form — a W-9 with an SSN or ITIN, or the
 * W-8BEN-style self-certification listing each tax residence with its TIN or a CRS reason code.
 * Shows the form on file and the duty to report a change within `changeReportDays`.
 */
export function TaxPage() {
  return (
    <IdentityShell>
      <Tax />
    </IdentityShell>
  );
}

function Tax() {
  const basic = useBasicKyc();
  // Open at level 1 as the server's gate says (docs/decisions/0011-verification-level.md).
  const kycLevel = useKycLevel();
  const isLevelOne = isStepOpen('tax', kycLevel.level);
  const tax = useTaxState(isLevelOne);
  const [isFiling, setIsFiling] = useState(false);
  if (basic.isPending || kycLevel.isPending) return <Skeleton active />;
  if (!isLevelOne) return <NeedsEarlierStep step="basic" />;
  if (tax.isPending || !tax.data) return <Skeleton active />;
  if (tax.data.current && !isFiling) return <TaxOnFile state={tax.data} onNewForm={() => setIsFiling(true)} />;
  return <TaxForm state={tax.data} onDone={() => setIsFiling(false)} />;
}

/** The form on file (its TIN masked by the server) and the 30-day rule. */
function TaxOnFile({ state, onNewForm }: { state: TaxState; onNewForm: () => void }) {
  const { t, i18n } = useTranslation('kyc');
  const countries = useCountries();
  const current = state.current!;
  const summary = current.summary as {
    usPersonBasis?: string;
    tin?: string;
    residences?: { country: string; tin?: string; noTinReason?: string }[];
  };
  const countryName = (code: string) => {
    const country = countries.data?.find((each) => each.code === code);
    return country ? (i18n.language === 'zh-HK' ? country.nameZh : country.nameEn) : code;
  };
  return (
    <Card data-testid="tax-on-file" data-form={current.form}>
      <Result
        status="success"
        title={t('tax.onFileTitle', { form: t(`tax.forms.${current.form}`) })}
        subTitle={t('tax.filedAt', { time: formatDateTime(current.createdAt, i18n.language) })}
        style={{ paddingBottom: 8 }}
      />
      <Alert
        type="info"
        showIcon
        data-testid="tax-change-rule"
        title={t('tax.changeRule', { days: state.changeReportDays })}
        style={{ marginBottom: 16 }}
      />
      <Descriptions column={1} size="small" bordered className="kyc-review-list">
        <Descriptions.Item label={t('tax.fields.form')}>{t(`tax.forms.${current.form}`)}</Descriptions.Item>
        {current.form === 'W9' ? (
          <>
            <Descriptions.Item label={t('tax.fields.usPersonBasis')}>
              {summary.usPersonBasis ? t(`tax.basis.${summary.usPersonBasis}`) : ''}
            </Descriptions.Item>
            <Descriptions.Item label={t('tax.fields.tin')}>{summary.tin ?? ''}</Descriptions.Item>
          </>
        ) : (
          (summary.residences ?? []).map((residence, index) => (
            <Descriptions.Item key={index} label={countryName(residence.country)}>
              {residence.tin ? residence.tin : t(`tax.reasons.${residence.noTinReason ?? 'A'}`)}
            </Descriptions.Item>
          ))
        )}
      </Descriptions>
      <div style={{ marginTop: 16 }}>
        <StepLinks
          extra={
            <Button onClick={onNewForm} data-testid="tax-new-form">
              {t('tax.newForm')}
            </Button>
          }
        />
      </div>
    </Card>
  );
}

function TaxForm({ state, onDone }: { state: TaxState; onDone: () => void }) {
  const { t, i18n } = useTranslation('kyc');
  const [form] = Form.useForm<TaxPageValues>();
  const isUsCitizen = Form.useWatch('isUsCitizen', { form, preserve: true });
  const isUsResident = Form.useWatch('isUsResident', { form, preserve: true });
  const isUsBorn = Form.useWatch('isUsBorn', { form, preserve: true });
  const kind = taxFormKind({ isUsCitizen, isUsResident, isUsBorn });
  const { current, setCurrent, error, isBusy, next, submit } = useTaxSteps(form, kind, onDone);

  return (
    <Card data-testid="kyc-tax-form">
      <StepBar current={current} titles={TAX_STEPS.map((step) => t(`tax.steps.${step}`))} />
      {state.isNewFormRequired && state.newFormDueAt && (
        <Alert
          type="warning"
          showIcon
          data-testid="tax-new-form-due"
          title={t('residence.newTaxFormDue', { time: formatDateTime(state.newFormDueAt, i18n.language) })}
          style={{ marginBottom: 16 }}
        />
      )}
      <Alert
        type="info"
        showIcon
        title={t('tax.changeRule', { days: state.changeReportDays })}
        style={{ marginBottom: 16 }}
      />
      <Form<TaxPageValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        className="kyc-form"
        initialValues={{ residences: [{}] }}
      >
        <TaxUsPersonFields isShown={current === 0} kind={kind} />
        <TaxFormFields isShown={current === 1} kind={kind} />
      </Form>

      {current === 2 && kind && <TaxReview kind={kind} values={form.getFieldsValue(true) as TaxPageValues} />}

      <StepActions
        current={current}
        isReviewStep={current >= 2}
        isBusy={isBusy}
        error={error}
        nextLabel={t('common.next')}
        submitLabel={t('tax.submit')}
        onPrevious={() => setCurrent(current - 1)}
        onNext={() => void next()}
        onSubmit={() => void submit()}
      />
    </Card>
  );
}
