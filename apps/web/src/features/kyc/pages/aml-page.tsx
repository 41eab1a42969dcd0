import { type AmlAnswersInput, amlAnswersSchema, type AmlState } from '@meridian/contracts/kyc';
import { toLocale } from '@meridian/contracts/locale';
import { validationMessage } from '@meridian/contracts/validation';
import { useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Descriptions,
  Form,
  Input,
  Radio,
  Result,
  Select,
  Skeleton,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isSuccess } from '../../../lib/api-client.ts';
import { answerAml } from '../api/answer-aml.ts';
import { kycKeys, useBasicKyc } from '../api/basic-kyc.ts';
import { useCountries } from '../../../lib/get-countries.ts';
import { useKycLevel } from '../api/kyc-level.ts';
import { useAmlState } from '../api/level-two.ts';
import { IdentityShell } from '../components/identity-shell.tsx';
import { StepActions, StepBar } from '../components/step-frame.tsx';
import { NeedsEarlierStep, StepLinks } from '../components/step-links.tsx';
import { applyNestedServerErrors, type FieldPath } from '../lib/server-field-errors.ts';
import { isStepOpen } from '../lib/kyc-view.ts';
import './identity-pages.css';

/** The questionnaire's choice lists, read from the contract (the scoring table's own lists). */
const shape = amlAnswersSchema.shape;
const OCCUPATIONS = shape.occupation.shape.status.options;
const INDUSTRIES = shape.occupation.shape.industry.options;
const FUNDS = shape.sourcesOfFunds.element.options;
const WEALTH = shape.sourcesOfWealth.element.options;
const VOLUMES = shape.expectedMonthlyVolumeUsdBand.options;
const PURPOSES = shape.purposes.element.options;

const STEPS = [
  { key: 'occupation', fields: [['occupation', 'status'], ['occupation', 'industry'], ['employer']] },
  { key: 'funds', fields: [['sourcesOfFunds'], ['sourcesOfWealth'], ['expectedMonthlyVolumeUsdBand'], ['purposes']] },
  { key: 'declarations', fields: [['isPoliticallyExposed'], ['hasSanctionsLinks'], ['sanctionsCountryLinks']] },
  { key: 'review', fields: [] },
] as const satisfies readonly { key: string; fields: readonly FieldPath[] }[];
const REVIEW_STEP = 3;
const FORM_ROOTS = [
  'occupation',
  'employer',
  'sourcesOfFunds',
  'sourcesOfWealth',
  'expectedMonthlyVolumeUsdBand',
  'purposes',
  'isPoliticallyExposed',
  'sanctionsCountryLinks',
];

/** The form's values: the answers, plus whether there are links to sanctioned countries at all. */
type AmlValues = Partial<AmlAnswersInput> & { hasSanctionsLinks?: boolean };

/**
 * `/identity/aml`: the AML questionnaire, answered in steps and sent once at the end to
 * `investor/aml` (the server keeps no draft of it). Shows the outcome — accepted or in enhanced
 * review — never the score.
 */
export function AmlPage() {
  return (
    <IdentityShell>
      <Aml />
    </IdentityShell>
  );
}

function Aml() {
  const basic = useBasicKyc();
  // Open at level 1 as the server's gate says (docs/decisions/0011-verification-level.md).
  const kycLevel = useKycLevel();
  const isLevelOne = isStepOpen('aml', kycLevel.level);
  const aml = useAmlState(isLevelOne);
  const [isAnswering, setIsAnswering] = useState(false);
  if (basic.isPending || kycLevel.isPending) return <Skeleton active />;
  if (!isLevelOne) return <NeedsEarlierStep step="basic" />;
  if (aml.isPending || !aml.data) return <Skeleton active />;
  if (aml.data.current && !isAnswering)
    return <AmlOutcome state={aml.data} onAnswerAgain={() => setIsAnswering(true)} />;
  return <AmlForm state={aml.data} onDone={() => setIsAnswering(false)} />;
}

/** The outcome of the current answers: accepted, in enhanced review, or rejected (answer again). */
function AmlOutcome({ state, onAnswerAgain }: { state: AmlState; onAnswerAgain: () => void }) {
  const { t } = useTranslation('kyc');
  const status = state.current?.status ?? 'accepted';
  const again = (
    <Button onClick={onAnswerAgain} data-testid="aml-answer-again">
      {t('aml.answerAgain')}
    </Button>
  );
  return (
    <Result
      data-testid="aml-outcome"
      data-status={status}
      status={status === 'accepted' ? 'success' : status === 'enhancedReview' ? 'info' : 'error'}
      title={t(`aml.outcome.${status}.title`)}
      subTitle={t(`aml.outcome.${status}.text`)}
      extra={<StepLinks extra={again} />}
    />
  );
}

function AmlForm({ state, onDone }: { state: AmlState; onDone: () => void }) {
  const { t, i18n } = useTranslation('kyc');
  const locale = toLocale(i18n.language);
  const queryClient = useQueryClient();
  const countries = useCountries();
  const [form] = Form.useForm<AmlValues>();
  const [current, setCurrent] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const hasSanctionsLinks = Form.useWatch('hasSanctionsLinks', { form, preserve: true });
  const required = { required: true, message: validationMessage('validation.required', locale) };
  const countryOptions = (countries.data ?? []).map((country) => ({
    value: country.code,
    label: locale === 'zh-HK' ? country.nameZh : country.nameEn,
  }));
  const previous = (state.current?.answers ?? {}) as Partial<AmlAnswersInput>;
  const initialValues: AmlValues = state.current
    ? { ...previous, hasSanctionsLinks: (previous.sanctionsCountryLinks ?? []).length > 0 }
    : {};

  const saveAndContinue = async () => {
    setError(null);
    try {
      await form.validateFields([...STEPS[current]!.fields]);
    } catch {
      return;
    }
    setCurrent(current + 1);
  };

  const submit = async () => {
    setError(null);
    const values = form.getFieldsValue(true) as AmlValues;
    const answers = {
      occupation: values.occupation,
      employer: (values.employer ?? '').trim(),
      sourcesOfFunds: values.sourcesOfFunds ?? [],
      sourcesOfWealth: values.sourcesOfWealth ?? [],
      expectedMonthlyVolumeUsdBand: values.expectedMonthlyVolumeUsdBand,
      purposes: values.purposes ?? [],
      isPoliticallyExposed: values.isPoliticallyExposed,
      sanctionsCountryLinks: values.hasSanctionsLinks ? (values.sanctionsCountryLinks ?? []) : [],
    } as AmlAnswersInput;
    setIsBusy(true);
    const response = await answerAml(answers);
    setIsBusy(false);
    if (isSuccess(response)) {
      queryClient.setQueryData(kycKeys.aml, response.content);
      onDone();
      return;
    }
    const { message, failing } = applyNestedServerErrors(form, response, FORM_ROOTS);
    setError(message);
    const first = failing[0];
    if (first) {
      const stepIndex = STEPS.findIndex((step) =>
        step.fields.some((path: readonly string[]) => path[0] === String(first[0])),
      );
      if (stepIndex >= 0) setCurrent(stepIndex);
    }
  };

  const shown = (step: number) => ({ style: { display: current === step ? undefined : 'none' } });
  const choices = (group: string, values: readonly string[]) =>
    values.map((value) => ({ value, label: t(`aml.${group}.${value}`) }));
  const yesNo = [
    { value: false, label: t('common.no') },
    { value: true, label: t('common.yes') },
  ];
  const labelsOf = (group: string, values: readonly string[] | undefined) =>
    (values ?? []).map((value) => t(`aml.${group}.${value}`)).join(', ');

  return (
    <Card data-testid="kyc-aml-form">
      {state.current?.status === 'rejected' && (
        <Alert type="error" showIcon style={{ marginBottom: 16 }} title={t('aml.outcome.rejected.title')} />
      )}
      <StepBar current={current} titles={STEPS.map((step) => t(`aml.steps.${step.key}`))} />
      {current === 0 && <Typography.Paragraph type="secondary">{t('aml.intro')}</Typography.Paragraph>}
      <Form<AmlValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={initialValues}
        className="kyc-form"
      >
        <div {...shown(0)}>
          <Form.Item label={t('aml.fields.occupation')} name={['occupation', 'status']} rules={[required]}>
            <Select options={choices('occupations', OCCUPATIONS)} data-testid="aml-occupation" />
          </Form.Item>
          <Form.Item label={t('aml.fields.industry')} name={['occupation', 'industry']} rules={[required]}>
            <Select options={choices('industries', INDUSTRIES)} data-testid="aml-industry" />
          </Form.Item>
          <Form.Item
            label={t('aml.fields.employer')}
            name="employer"
            rules={[{ max: 200, message: validationMessage('validation.tooLong', locale) }]}
          >
            <Input autoComplete="organization" />
          </Form.Item>
        </div>

        <div {...shown(1)}>
          <Form.Item label={t('aml.fields.sourcesOfFunds')} name="sourcesOfFunds" rules={[required]}>
            <Checkbox.Group options={choices('funds', FUNDS)} className="kyc-choice-list" data-testid="aml-funds" />
          </Form.Item>
          <Form.Item label={t('aml.fields.sourcesOfWealth')} name="sourcesOfWealth" rules={[required]}>
            <Checkbox.Group options={choices('wealth', WEALTH)} className="kyc-choice-list" data-testid="aml-wealth" />
          </Form.Item>
          <Form.Item label={t('aml.fields.volume')} name="expectedMonthlyVolumeUsdBand" rules={[required]}>
            <Radio.Group options={choices('volumes', VOLUMES)} className="kyc-choice-list" data-testid="aml-volume" />
          </Form.Item>
          <Form.Item label={t('aml.fields.purposes')} name="purposes" rules={[required]}>
            <Checkbox.Group
              options={choices('purposes', PURPOSES)}
              className="kyc-choice-list"
              data-testid="aml-purposes"
            />
          </Form.Item>
        </div>

        <div {...shown(2)}>
          <Form.Item
            label={t('aml.fields.politicallyExposed')}
            extra={t('aml.politicallyExposedHint')}
            name="isPoliticallyExposed"
            rules={[required]}
          >
            <Radio.Group options={yesNo} data-testid="aml-pep" />
          </Form.Item>
          <Form.Item label={t('aml.fields.sanctionsLinks')} name="hasSanctionsLinks" rules={[required]}>
            <Radio.Group options={yesNo} data-testid="aml-sanctions" />
          </Form.Item>
          {hasSanctionsLinks === true && (
            <Form.Item label={t('aml.fields.sanctionsCountries')} name="sanctionsCountryLinks" rules={[required]}>
              <Select
                mode="multiple"
                showSearch
                optionFilterProp="label"
                options={countryOptions}
                loading={countries.isPending}
                data-testid="aml-sanctions-countries"
              />
            </Form.Item>
          )}
        </div>
      </Form>

      {current === REVIEW_STEP && (
        <div data-testid="kyc-review">
          <Typography.Paragraph>{t('aml.reviewHint')}</Typography.Paragraph>
          <AmlReview
            values={form.getFieldsValue(true) as AmlValues}
            labelsOf={labelsOf}
            countryOptions={countryOptions}
          />
        </div>
      )}

      <StepActions
        current={current}
        isReviewStep={current === REVIEW_STEP}
        isBusy={isBusy}
        error={error}
        nextLabel={t('common.next')}
        submitLabel={t('aml.submit')}
        onPrevious={() => setCurrent(current - 1)}
        onNext={() => void saveAndContinue()}
        onSubmit={() => void submit()}
      />
    </Card>
  );
}

function AmlReview({
  values,
  labelsOf,
  countryOptions,
}: {
  values: AmlValues;
  labelsOf: (group: string, values: readonly string[] | undefined) => string;
  countryOptions: { value: string; label: string }[];
}) {
  const { t } = useTranslation('kyc');
  const yesNo = (value: boolean | undefined) => (value === undefined ? '' : t(value ? 'common.yes' : 'common.no'));
  const countries = values.hasSanctionsLinks
    ? (values.sanctionsCountryLinks ?? [])
        .map((code) => countryOptions.find((option) => option.value === code)?.label ?? code)
        .join(', ')
    : '';
  return (
    <Descriptions column={1} size="small" bordered className="kyc-review-list">
      <Descriptions.Item label={t('aml.fields.occupation')}>
        {labelsOf('occupations', values.occupation?.status ? [values.occupation.status] : [])}
      </Descriptions.Item>
      <Descriptions.Item label={t('aml.fields.industry')}>
        {labelsOf('industries', values.occupation?.industry ? [values.occupation.industry] : [])}
      </Descriptions.Item>
      <Descriptions.Item label={t('aml.fields.employer')}>{values.employer ?? ''}</Descriptions.Item>
      <Descriptions.Item label={t('aml.fields.sourcesOfFunds')}>
        {labelsOf('funds', values.sourcesOfFunds)}
      </Descriptions.Item>
      <Descriptions.Item label={t('aml.fields.sourcesOfWealth')}>
        {labelsOf('wealth', values.sourcesOfWealth)}
      </Descriptions.Item>
      <Descriptions.Item label={t('aml.fields.volume')}>
        {labelsOf('volumes', values.expectedMonthlyVolumeUsdBand ? [values.expectedMonthlyVolumeUsdBand] : [])}
      </Descriptions.Item>
      <Descriptions.Item label={t('aml.fields.purposes')}>{labelsOf('purposes', values.purposes)}</Descriptions.Item>
      <Descriptions.Item label={t('aml.fields.politicallyExposed')}>
        {yesNo(values.isPoliticallyExposed)}
      </Descriptions.Item>
      <Descriptions.Item label={t('aml.fields.sanctionsLinks')}>
        {yesNo(values.hasSanctionsLinks)}
        {countries && ` · ${countries}`}
      </Descriptions.Item>
    </Descriptions>
  );
}
