import { NO_TIN_REASONS, type TaxState } from '@meridian/contracts/kyc';
import { usTaxIdSchema } from '@meridian/contracts/kyc-rules';
import { toLocale } from '@meridian/contracts/locale';
import { validationMessage } from '@meridian/contracts/validation';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Descriptions, Form, Input, Radio, Result, Select, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isSuccess } from '../../../lib/api-client.ts';
import { kycKeys, useBasicKyc } from '../api/basic-kyc.ts';
import { useCountries } from '../../../lib/get-countries.ts';
import { useKycLevel } from '../api/kyc-level.ts';
import { fileTaxForm } from '../api/file-tax-form.ts';
import { useTaxState } from '../api/level-two.ts';
import { IdentityShell } from '../components/identity-shell.tsx';
import { StepActions, StepBar } from '../components/step-frame.tsx';
import { NeedsEarlierStep, StepLinks } from '../components/step-links.tsx';
import { formatDateTime } from '../lib/format-time.ts';
import { applyNestedServerErrors } from '../lib/server-field-errors.ts';
import { taxFormBody, taxFormKind, type TaxPageValues } from '../lib/tax-form.ts';
import { zodRule } from '../lib/zod-rule.ts';
import { isStepOpen } from '../lib/kyc-view.ts';
import './identity-pages.css';

const STEPS = ['usPerson', 'form', 'review'] as const;
const FORM_ROOTS = ['tin', 'residences', 'usPersonBasis', 'isUsBorn'];

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
  const locale = toLocale(i18n.language);
  const queryClient = useQueryClient();
  const countries = useCountries();
  const [form] = Form.useForm<TaxPageValues>();
  const [current, setCurrent] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const isUsCitizen = Form.useWatch('isUsCitizen', { form, preserve: true });
  const isUsResident = Form.useWatch('isUsResident', { form, preserve: true });
  const isUsBorn = Form.useWatch('isUsBorn', { form, preserve: true });
  const kind = taxFormKind({ isUsCitizen, isUsResident, isUsBorn });
  const required = { required: true, message: validationMessage('validation.required', locale) };
  const countryOptions = (countries.data ?? []).map((country) => ({
    value: country.code,
    label: locale === 'zh-HK' ? country.nameZh : country.nameEn,
  }));
  const yesNo = [
    { value: false, label: t('common.no') },
    { value: true, label: t('common.yes') },
  ];

  const next = async () => {
    setError(null);
    try {
      if (current === 0) await form.validateFields(['isUsCitizen', 'isUsResident', 'isUsBorn']);
      else await form.validateFields(kind?.form === 'W9' ? ['tin'] : [['residences']], { recursive: true });
    } catch {
      return;
    }
    setCurrent(current + 1);
  };

  const submit = async () => {
    setError(null);
    const body = taxFormBody(form.getFieldsValue(true) as TaxPageValues);
    if (!body) {
      setCurrent(0);
      return;
    }
    setIsBusy(true);
    const response = await fileTaxForm(body);
    setIsBusy(false);
    if (isSuccess(response)) {
      queryClient.setQueryData(kycKeys.tax, response.content);
      onDone();
      return;
    }
    const { message, failing } = applyNestedServerErrors(form, response, FORM_ROOTS);
    setError(message);
    if (failing.length > 0) setCurrent(1);
  };

  const shown = (step: number) => ({ style: { display: current === step ? undefined : 'none' } });
  const values = form.getFieldsValue(true) as TaxPageValues;
  const countryName = (code: string | undefined) =>
    countryOptions.find((option) => option.value === code)?.label ?? code ?? '';

  return (
    <Card data-testid="kyc-tax-form">
      <StepBar current={current} titles={STEPS.map((step) => t(`tax.steps.${step}`))} />
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
        <div {...shown(0)}>
          <Form.Item label={t('tax.fields.isUsCitizen')} name="isUsCitizen" rules={[required]}>
            <Radio.Group options={yesNo} data-testid="tax-citizen" />
          </Form.Item>
          <Form.Item label={t('tax.fields.isUsResident')} name="isUsResident" rules={[required]}>
            <Radio.Group options={yesNo} data-testid="tax-resident" />
          </Form.Item>
          <Form.Item label={t('tax.fields.isUsBorn')} name="isUsBorn" rules={[required]}>
            <Radio.Group options={yesNo} data-testid="tax-born" />
          </Form.Item>
          {kind && (
            <Alert
              type="info"
              data-testid="tax-kind"
              data-form={kind.form}
              title={t(kind.form === 'W9' ? 'tax.needsW9' : 'tax.needsW8ben')}
            />
          )}
        </div>

        <div {...shown(1)}>
          {kind?.form === 'W9' && (
            <Form.Item
              label={t('tax.fields.tin')}
              extra={t('tax.tinHint')}
              name="tin"
              rules={[required, zodRule(() => usTaxIdSchema, locale)]}
            >
              <Input autoComplete="off" placeholder="AAA-GG-SSSS" inputMode="numeric" />
            </Form.Item>
          )}
          {kind?.form === 'W8BEN' && (
            <>
              <Typography.Paragraph type="secondary">{t('tax.residencesHint')}</Typography.Paragraph>
              <Form.List name="residences">
                {(fields, { add, remove }) => (
                  <>
                    {fields.map((field, index) => (
                      <div key={field.key} className="kyc-person-row" data-testid={`tax-residence-${index}`}>
                        <Form.Item label={t('tax.fields.country')} name={[field.name, 'country']} rules={[required]}>
                          <Select
                            showSearch
                            optionFilterProp="label"
                            options={countryOptions}
                            loading={countries.isPending}
                            data-testid={`tax-country-${index}`}
                          />
                        </Form.Item>
                        <Form.Item
                          label={t('tax.fields.residenceTin')}
                          name={[field.name, 'tin']}
                          dependencies={[['residences', field.name, 'noTinReason']]}
                          rules={[
                            { max: 40, message: validationMessage('validation.tooLong', locale) },
                            {
                              validator: async (_rule, value: string | undefined) => {
                                const reason = form.getFieldValue(['residences', field.name, 'noTinReason']);
                                if (!(value ?? '').trim() && !reason)
                                  throw new Error(validationMessage('validation.tinOrReason', locale));
                              },
                            },
                          ]}
                        >
                          <Input autoComplete="off" />
                        </Form.Item>
                        <Form.Item label={t('tax.fields.noTinReason')} name={[field.name, 'noTinReason']}>
                          <Select
                            allowClear
                            options={NO_TIN_REASONS.map((reason) => ({
                              value: reason,
                              label: t(`tax.reasons.${reason}`),
                            }))}
                            data-testid={`tax-reason-${index}`}
                            popupMatchSelectWidth={false}
                          />
                        </Form.Item>
                        <Button
                          className="kyc-person-remove"
                          onClick={() => remove(field.name)}
                          disabled={fields.length <= 1}
                        >
                          {t('investor.remove')}
                        </Button>
                      </div>
                    ))}
                    {fields.length < 5 && (
                      <Button type="dashed" block onClick={() => add({})} data-testid="tax-add-residence">
                        {t('tax.addResidence')}
                      </Button>
                    )}
                  </>
                )}
              </Form.List>
            </>
          )}
        </div>
      </Form>

      {current === 2 && kind && (
        <div data-testid="kyc-review">
          <Typography.Paragraph>{t('tax.reviewHint')}</Typography.Paragraph>
          <Descriptions column={1} size="small" bordered className="kyc-review-list">
            <Descriptions.Item label={t('tax.fields.form')}>{t(`tax.forms.${kind.form}`)}</Descriptions.Item>
            {kind.form === 'W9' ? (
              <>
                <Descriptions.Item label={t('tax.fields.usPersonBasis')}>
                  {t(`tax.basis.${kind.usPersonBasis}`)}
                </Descriptions.Item>
                <Descriptions.Item label={t('tax.fields.tin')}>{values.tin ?? ''}</Descriptions.Item>
              </>
            ) : (
              (values.residences ?? []).map((residence, index) => (
                <Descriptions.Item key={index} label={countryName(residence?.country)}>
                  {residence?.tin
                    ? residence.tin
                    : residence?.noTinReason
                      ? t(`tax.reasons.${residence.noTinReason}`)
                      : ''}
                </Descriptions.Item>
              ))
            )}
          </Descriptions>
        </div>
      )}

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
