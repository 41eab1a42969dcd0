import {
  ANNUAL_INCOME_USD_BANDS,
  COMPANY_DOCUMENT_KINDS,
  INVESTMENT_EXPERIENCE,
  type InvestorDraft,
  type InvestorState,
  investorSubmissionSchema,
  KYC_STATUS,
  type KycDocument,
  NET_WORTH_USD_BANDS,
} from '@meridian/contracts/kyc';
import { englishNameSchema } from '@meridian/contracts/kyc-rules';
import { toLocale } from '@meridian/contracts/locale';
import { validationMessage } from '@meridian/contracts/validation';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Descriptions, Form, Input, Radio, Result, Select, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isSuccess } from '../../../lib/api-client.ts';
import { kycKeys, useBasicKyc } from '../api/basic-kyc.ts';
import { useKycLevel } from '../api/kyc-level.ts';
import { commitInvestor } from '../api/commit-investor.ts';
import { useCountries } from '../../../lib/get-countries.ts';
import { useInvestorState } from '../api/level-two.ts';
import { saveInvestorDraft } from '../api/save-investor-draft.ts';
import { DocumentUploads } from '../components/document-upload.tsx';
import { IdentityShell } from '../components/identity-shell.tsx';
import { StepActions, StepBar } from '../components/step-frame.tsx';
import { NeedsEarlierStep, StepLinks, UnderReviewResult } from '../components/step-links.tsx';
import { type OwnerValues, sharesExceedWhole } from '../lib/investor-form.ts';
import { applyNestedServerErrors, type FieldPath } from '../lib/server-field-errors.ts';
import { zodRule } from '../lib/zod-rule.ts';
import { isStepOpen } from '../lib/kyc-view.ts';
import './identity-pages.css';
import { useStepState } from '../hooks/use-step-state.ts';

type StepKey = 'type' | 'individual' | 'company' | 'people' | 'documents' | 'review';
const INDIVIDUAL_STEPS: StepKey[] = ['type', 'individual', 'review'];
const COMPANY_STEPS: StepKey[] = ['type', 'company', 'people', 'documents', 'review'];
const COMPANY_FIELDS = ['companyName', 'registrationNumber', 'registeredAddress', 'countryOfIncorporation'] as const;
const FORM_ROOTS = ['type', 'individual', 'company'];

/** The share of a beneficial owner, checked by the contract's own rule (25–100 %, at most 2 decimals). */
const companyShape = investorSubmissionSchema.options[1].shape.company.shape;
const sharePercentSchema = companyShape.beneficialOwners.element.shape.sharePercent;

/** The investor form's values: the draft's shape (`investorDraftSchema`). */
interface InvestorValues {
  type?: 'individual' | 'company';
  individual?: { netWorthUsdBand?: string; annualIncomeUsdBand?: string; investmentExperience?: string };
  company?: {
    companyName?: string;
    registrationNumber?: string;
    registeredAddress?: string;
    countryOfIncorporation?: string;
    directors?: ({ name?: string; idNumber?: string } | undefined)[];
    beneficialOwners?: (OwnerValues | undefined)[];
  };
}

/** `/identity/investor`: the investor profile, individual or company, saved step by step and submitted for review. */
export function InvestorPage() {
  return (
    <IdentityShell>
      <Investor />
    </IdentityShell>
  );
}

function Investor() {
  const { t } = useTranslation('kyc');
  const basic = useBasicKyc();
  // Open at level 1 as the server's gate says (docs/decisions/0011-verification-level.md).
  const kycLevel = useKycLevel();
  const isLevelOne = isStepOpen('investor', kycLevel.level);
  const investor = useInvestorState(isLevelOne);
  if (basic.isPending || kycLevel.isPending) return <Skeleton active />;
  if (!isLevelOne) return <NeedsEarlierStep step="basic" />;
  if (investor.isPending || !investor.data) return <Skeleton active />;
  const data = investor.data;
  if (data.status === KYC_STATUS.UNDER_REVIEW)
    return <UnderReviewResult expectedDecisionAt={data.expectedDecisionAt} />;
  if (data.status === KYC_STATUS.VERIFIED)
    return (
      <Result data-testid="kyc-verified" status="success" title={t('investor.verifiedTitle')} extra={<StepLinks />} />
    );
  return <InvestorForm state={data} documents={basic.data?.documents ?? []} />;
}

function InvestorForm({ state, documents: initialDocuments }: { state: InvestorState; documents: KycDocument[] }) {
  const { t, i18n } = useTranslation('kyc');
  const locale = toLocale(i18n.language);
  const queryClient = useQueryClient();
  const countries = useCountries();
  const [form] = Form.useForm<InvestorValues>();
  const { current, setCurrent, error, setError, isBusy, setIsBusy } = useStepState();
  const [documents, setDocuments] = useState(initialDocuments);
  const type = Form.useWatch('type', { form, preserve: true });
  const steps = type === 'company' ? COMPANY_STEPS : INDIVIDUAL_STEPS;
  const stepKey = steps[current] ?? 'type';
  const countryOptions = (countries.data ?? []).map((country) => ({
    value: country.code,
    label: locale === 'zh-HK' ? country.nameZh : country.nameEn,
  }));
  const missingDocuments = COMPANY_DOCUMENT_KINDS.filter((kind) => !documents.some((each) => each.kind === kind));

  const draftValues = (): InvestorDraft => {
    const values = form.getFieldsValue(true) as InvestorValues;
    const company = values.company && {
      ...values.company,
      directors: (values.company.directors ?? []).map((each) => each ?? {}),
      beneficialOwners: (values.company.beneficialOwners ?? []).map((each) => each ?? {}),
    };
    return {
      ...(values.type && { type: values.type }),
      ...(values.individual && { individual: values.individual }),
      ...(company && { company }),
    };
  };

  const validateStep = async (): Promise<boolean> => {
    try {
      if (stepKey === 'type') await form.validateFields([['type']]);
      if (stepKey === 'individual') await form.validateFields([['individual']], { recursive: true });
      if (stepKey === 'company') await form.validateFields(COMPANY_FIELDS.map((name) => ['company', name]));
      if (stepKey === 'people')
        await form.validateFields(
          [
            ['company', 'directors'],
            ['company', 'beneficialOwners'],
          ],
          { recursive: true },
        );
    } catch {
      return false;
    }
    if (stepKey === 'people' && sharesExceedWhole(form.getFieldValue(['company', 'beneficialOwners']) ?? [])) {
      setError(validationMessage('validation.sharesTotal', locale));
      return false;
    }
    if (stepKey === 'documents' && missingDocuments.length > 0) {
      setError(t('basic.missingDocument'));
      return false;
    }
    return true;
  };

  const saveAndContinue = async () => {
    setError(null);
    if (!(await validateStep())) return;
    setIsBusy(true);
    const response = await saveInvestorDraft(draftValues());
    setIsBusy(false);
    if (!isSuccess(response)) {
      setError(applyNestedServerErrors(form, response, FORM_ROOTS).message);
      return;
    }
    queryClient.setQueryData(kycKeys.investor, response.content);
    setCurrent(current + 1);
  };

  const stepOfField = (path: FieldPath): number => {
    const [root, child] = path;
    if (root === 'type') return 0;
    if (root === 'individual') return steps.indexOf('individual');
    if (root === 'company')
      return steps.indexOf(child === 'directors' || child === 'beneficialOwners' ? 'people' : 'company');
    return steps.indexOf('documents');
  };

  const submit = async () => {
    setError(null);
    setIsBusy(true);
    const response = await commitInvestor();
    setIsBusy(false);
    if (isSuccess(response)) {
      queryClient.setQueryData(kycKeys.investor, response.content);
      return;
    }
    const { message, failing } = applyNestedServerErrors(form, response, FORM_ROOTS);
    setError(message);
    const first = failing[0];
    if (first) setCurrent(Math.max(0, stepOfField(first)));
  };

  const shown = (key: StepKey) => ({ style: { display: stepKey === key ? undefined : 'none' } });
  const countryName = (code: string | undefined) =>
    countryOptions.find((option) => option.value === code)?.label ?? code ?? '';

  return (
    <Card data-testid="kyc-investor-form">
      <StepBar
        current={current}
        titles={steps.map((step) => t(`investor.steps.${step}`))}
        failedReason={state.status === KYC_STATUS.FAILED ? state.message : null}
      />
      <Form<InvestorValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={state.draft as InvestorValues}
        className="kyc-form"
      >
        <div {...shown('type')}>
          <InvestorTypeField onChange={() => setCurrent(0)} />
        </div>

        {type !== 'company' && (
          <div {...shown('individual')}>
            <IndividualFields />
          </div>
        )}

        {type === 'company' && (
          <>
            <div {...shown('company')}>
              <CompanyFields countryOptions={countryOptions} isLoadingCountries={countries.isPending} />
            </div>

            <div {...shown('people')}>
              <PeopleFields />
            </div>
          </>
        )}
      </Form>

      {stepKey === 'documents' && <CompanyDocumentsStep documents={documents} onChange={setDocuments} />}

      {stepKey === 'review' && (
        <div data-testid="kyc-review">
          <Typography.Paragraph>{t('basic.reviewHint')}</Typography.Paragraph>
          <InvestorReview
            values={form.getFieldsValue(true) as InvestorValues}
            countryName={countryName}
            documents={documents}
          />
        </div>
      )}

      <StepActions
        current={current}
        isReviewStep={stepKey === 'review'}
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

/** Directors or beneficial owners (`Form.List`): name in English, ID number, and for owners the share. */
function PeopleList({
  name,
  title,
  hint,
  addLabel,
  hasShare,
  minimum,
}: {
  name: 'directors' | 'beneficialOwners';
  title: string;
  hint?: string;
  addLabel: string;
  hasShare: boolean;
  minimum: number;
}) {
  const { t, i18n } = useTranslation('kyc');
  const locale = toLocale(i18n.language);
  const required = { required: true, message: validationMessage('validation.required', locale) };
  return (
    <div className="kyc-people" data-testid={`investor-${name}`}>
      <Typography.Text strong>{title}</Typography.Text>
      {hint && (
        <Typography.Paragraph type="secondary" style={{ marginBottom: 8 }}>
          {hint}
        </Typography.Paragraph>
      )}
      <Form.List
        name={['company', name]}
        initialValue={minimum > 0 ? [{}] : []}
        rules={[
          {
            validator: async (_rule, rows: unknown[] | undefined) => {
              if ((rows?.length ?? 0) < minimum) throw new Error(validationMessage('validation.required', locale));
            },
          },
        ]}
      >
        {(fields, { add, remove }, { errors }) => (
          <>
            {fields.map((field, index) => (
              <div key={field.key} className="kyc-person-row" data-testid={`investor-${name}-${index}`}>
                <Form.Item
                  label={t('investor.fields.personName')}
                  name={[field.name, 'name']}
                  rules={[required, zodRule(() => englishNameSchema, locale)]}
                >
                  <Input />
                </Form.Item>
                <Form.Item
                  label={t('investor.fields.personIdNumber')}
                  name={[field.name, 'idNumber']}
                  rules={[required, { max: 40, message: validationMessage('validation.tooLong', locale) }]}
                >
                  <Input autoComplete="off" />
                </Form.Item>
                {hasShare && (
                  <Form.Item
                    label={t('investor.fields.sharePercent')}
                    name={[field.name, 'sharePercent']}
                    rules={[required, zodRule(() => sharePercentSchema, locale)]}
                  >
                    <Input inputMode="decimal" suffix="%" />
                  </Form.Item>
                )}
                <Button
                  className="kyc-person-remove"
                  onClick={() => remove(field.name)}
                  disabled={fields.length <= minimum}
                  aria-label={t('investor.remove')}
                >
                  {t('investor.remove')}
                </Button>
              </div>
            ))}
            <Form.ErrorList errors={errors} />
            <Button type="dashed" onClick={() => add({})} block data-testid={`investor-add-${name}`}>
              {addLabel}
            </Button>
          </>
        )}
      </Form.List>
    </div>
  );
}

/** The review of the investor profile before it is submitted. */
function InvestorReview({
  values,
  countryName,
  documents,
}: {
  values: InvestorValues;
  countryName: (code: string | undefined) => string;
  documents: KycDocument[];
}) {
  const { t } = useTranslation('kyc');
  const individual = values.individual ?? {};
  const company = values.company ?? {};
  const people = (rows: ({ name?: string; idNumber?: string; sharePercent?: string } | undefined)[] | undefined) =>
    (rows ?? [])
      .filter((row) => row !== undefined)
      .map((row) =>
        [row.name, row.idNumber, row.sharePercent ? `${row.sharePercent} %` : ''].filter(Boolean).join(' · '),
      )
      .join('\n');
  return (
    <Descriptions column={1} size="small" bordered className="kyc-review-list">
      <Descriptions.Item label={t('investor.fields.type')}>
        {values.type ? t(`investor.types.${values.type}`) : ''}
      </Descriptions.Item>
      {values.type !== 'company' ? (
        <>
          <Descriptions.Item label={t('investor.fields.netWorthUsdBand')}>
            {individual.netWorthUsdBand ? t(`investor.netWorth.${individual.netWorthUsdBand}`) : ''}
          </Descriptions.Item>
          <Descriptions.Item label={t('investor.fields.annualIncomeUsdBand')}>
            {individual.annualIncomeUsdBand ? t(`investor.income.${individual.annualIncomeUsdBand}`) : ''}
          </Descriptions.Item>
          <Descriptions.Item label={t('investor.fields.investmentExperience')}>
            {individual.investmentExperience ? t(`investor.experience.${individual.investmentExperience}`) : ''}
          </Descriptions.Item>
        </>
      ) : (
        <>
          {COMPANY_FIELDS.map((name) => (
            <Descriptions.Item key={name} label={t(`investor.fields.${name}`)}>
              {name === 'countryOfIncorporation' ? countryName(company[name]) : (company[name] ?? '')}
            </Descriptions.Item>
          ))}
          <Descriptions.Item label={t('investor.fields.directors')}>
            <span style={{ whiteSpace: 'pre-line' }}>{people(company.directors)}</span>
          </Descriptions.Item>
          <Descriptions.Item label={t('investor.fields.beneficialOwners')}>
            <span style={{ whiteSpace: 'pre-line' }}>{people(company.beneficialOwners)}</span>
          </Descriptions.Item>
          {COMPANY_DOCUMENT_KINDS.map((kind) => (
            <Descriptions.Item key={kind} label={t(`investor.documents.${kind}`)}>
              {documents.find((document) => document.kind === kind)?.fileName ?? ''}
            </Descriptions.Item>
          ))}
        </>
      )}
    </Descriptions>
  );
}

/** The company's name, registration number, registered address and country of incorporation. */
function CompanyFields({
  countryOptions,
  isLoadingCountries,
}: {
  countryOptions: { value: string; label: string }[];
  isLoadingCountries: boolean;
}) {
  const { t, i18n } = useTranslation('kyc');
  const locale = toLocale(i18n.language);
  const required = { required: true, message: validationMessage('validation.required', locale) };
  const tooLong = (max: number) => ({ max, message: validationMessage('validation.tooLong', locale) });
  return (
    <>
      <Form.Item
        label={t('investor.fields.companyName')}
        name={['company', 'companyName']}
        rules={[required, tooLong(200)]}
      >
        <Input autoComplete="organization" />
      </Form.Item>
      <Form.Item
        label={t('investor.fields.registrationNumber')}
        name={['company', 'registrationNumber']}
        rules={[required, tooLong(50)]}
      >
        <Input />
      </Form.Item>
      <Form.Item
        label={t('investor.fields.registeredAddress')}
        name={['company', 'registeredAddress']}
        rules={[required, tooLong(200)]}
      >
        <Input.TextArea rows={3} />
      </Form.Item>
      <Form.Item
        label={t('investor.fields.countryOfIncorporation')}
        name={['company', 'countryOfIncorporation']}
        rules={[required]}
      >
        <Select
          showSearch
          optionFilterProp="label"
          options={countryOptions}
          loading={isLoadingCountries}
          data-testid="investor-country"
        />
      </Form.Item>
    </>
  );
}

/** Individual investor: net worth, annual income and investment experience, each by band. */
function IndividualFields() {
  const { t, i18n } = useTranslation('kyc');
  const required = { required: true, message: validationMessage('validation.required', toLocale(i18n.language)) };
  const bandSelect = (name: string, choices: readonly string[], group: string) => (
    <Form.Item label={t(`investor.fields.${name}`)} name={['individual', name]} rules={[required]}>
      <Radio.Group
        data-testid={`investor-${name}`}
        options={choices.map((choice) => ({ value: choice, label: t(`investor.${group}.${choice}`) }))}
        className="kyc-choice-list"
      />
    </Form.Item>
  );
  return (
    <>
      {bandSelect('netWorthUsdBand', NET_WORTH_USD_BANDS, 'netWorth')}
      {bandSelect('annualIncomeUsdBand', ANNUAL_INCOME_USD_BANDS, 'income')}
      {bandSelect('investmentExperience', INVESTMENT_EXPERIENCE, 'experience')}
    </>
  );
}

/** Individual or company investor; changing it starts the steps again. */
function InvestorTypeField({ onChange }: { onChange: () => void }) {
  const { t, i18n } = useTranslation('kyc');
  const required = { required: true, message: validationMessage('validation.required', toLocale(i18n.language)) };
  return (
    <Form.Item label={t('investor.fields.type')} name="type" rules={[required]}>
      <Radio.Group
        data-testid="investor-type"
        className="kyc-choice-list"
        options={[
          { value: 'individual', label: t('investor.types.individual') },
          { value: 'company', label: t('investor.types.company') },
        ]}
        onChange={onChange}
      />
    </Form.Item>
  );
}

/** A company's directors (at least one) and beneficial owners with their shares. */
function PeopleFields() {
  const { t } = useTranslation('kyc');
  return (
    <>
      <PeopleList
        name="directors"
        title={t('investor.fields.directors')}
        addLabel={t('investor.addDirector')}
        hasShare={false}
        minimum={1}
      />
      <PeopleList
        name="beneficialOwners"
        title={t('investor.fields.beneficialOwners')}
        hint={t('investor.ownersHint')}
        addLabel={t('investor.addOwner')}
        hasShare
        minimum={0}
      />
    </>
  );
}

/** The company's documents, each uploaded under its kind. */
function CompanyDocumentsStep({
  documents,
  onChange,
}: {
  documents: KycDocument[];
  onChange: (update: (before: KycDocument[]) => KycDocument[]) => void;
}) {
  const { t } = useTranslation('kyc');
  return (
    <div data-testid="kyc-documents">
      <Typography.Paragraph type="secondary">{t('basic.documentsHint')}</Typography.Paragraph>
      <DocumentUploads
        kinds={COMPANY_DOCUMENT_KINDS}
        labelOf={(kind) => t(`investor.documents.${kind}`)}
        documents={documents}
        onChange={onChange}
      />
    </div>
  );
}
