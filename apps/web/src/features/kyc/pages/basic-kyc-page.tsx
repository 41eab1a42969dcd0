import { type BasicKycDraft, type BasicKycState, KYC_STATUS, requiredDocumentKinds } from '@meridian/contracts/kyc';
import {
  dateOfBirthSchema,
  englishNameSchema,
  ID_TYPES,
  idNumberSchemaFor,
  type IdType,
} from '@meridian/contracts/kyc-rules';
import { toLocale } from '@meridian/contracts/locale';
import { validationMessage } from '@meridian/contracts/validation';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Descriptions, Flex, Form, Input, Result, Select, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../../config/paths.ts';
import { isSuccess } from '../../../lib/api-client.ts';
import { applyServerErrors } from '../../../lib/form-errors.ts';
import { maskIdNumber } from '../../../lib/kyc-identity.ts';
import { commitBasicKyc, kycKeys, saveBasicDraft, useBasicKyc } from '../api/basic-kyc.ts';
import { useCountries } from '../../../lib/get-countries.ts';
import { DocumentUploads } from '../components/document-upload.tsx';
import { IdentityShell } from '../components/identity-shell.tsx';
import { StepActions, StepBar } from '../components/step-frame.tsx';
import { formatDateTime } from '../lib/format-time.ts';
import { useIdentitySearch } from '../lib/use-identity-search.ts';
import { zodRule } from '../lib/zod-rule.ts';
import './identity-pages.css';

/** The form's steps and the draft fields each one holds (documents and review hold none). */
const STEPS = [
  { key: 'personal', fields: ['firstName', 'lastName', 'nameChinese', 'dateOfBirth', 'nationality', 'residence'] },
  { key: 'id', fields: ['idType', 'idNumber'] },
  { key: 'address', fields: ['address', 'proofOfAddressDate'] },
  { key: 'documents', fields: [] },
  { key: 'review', fields: [] },
] as const satisfies readonly { key: string; fields: readonly (keyof BasicKycDraft)[] }[];
const DOCUMENTS_STEP = 3;
const REVIEW_STEP = 4;
const ALL_FIELDS: (keyof BasicKycDraft)[] = STEPS.flatMap((step) => [...step.fields]);

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
  const { t, i18n } = useTranslation('kyc');
  const locale = toLocale(i18n.language);
  const queryClient = useQueryClient();
  const countries = useCountries();
  const [form] = Form.useForm<BasicKycDraft>();
  const [current, setCurrent] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const [documents, setDocuments] = useState(state.documents);
  const idType = Form.useWatch('idType', { form, preserve: true }) as IdType | undefined;
  const required = { required: true, message: validationMessage('validation.required', locale) };
  const countryOptions = (countries.data ?? []).map((country) => ({
    value: country.code,
    label: locale === 'zh-HK' ? country.nameZh : country.nameEn,
  }));
  const neededKinds = requiredDocumentKinds(idType && ID_TYPES.includes(idType) ? idType : 'passport');
  const missingKinds = neededKinds.filter((kind) => !documents.some((document) => document.kind === kind));

  const draftValues = (): BasicKycDraft => {
    const values = form.getFieldsValue(ALL_FIELDS) as Record<string, string | undefined>;
    return Object.fromEntries(Object.entries(values).filter(([, value]) => typeof value === 'string')) as BasicKycDraft;
  };

  const saveAndContinue = async () => {
    setError(null);
    try {
      await form.validateFields([...STEPS[current]!.fields]);
    } catch {
      return;
    }
    if (current === DOCUMENTS_STEP && missingKinds.length > 0) {
      setError(t('basic.missingDocument'));
      return;
    }
    setIsBusy(true);
    const response = await saveBasicDraft(draftValues());
    setIsBusy(false);
    if (!isSuccess(response)) {
      setError(applyServerErrors(form, response, ALL_FIELDS));
      return;
    }
    queryClient.setQueryData(kycKeys.basic, response.content);
    setCurrent(current + 1);
  };

  const submit = async () => {
    setError(null);
    setIsBusy(true);
    const response = await commitBasicKyc();
    setIsBusy(false);
    if (isSuccess(response)) {
      queryClient.setQueryData(kycKeys.basic, response.content);
      return;
    }
    setError(applyServerErrors(form, response, ALL_FIELDS));
    // Go back to the first step with a field the server refused.
    const failing = form
      .getFieldsError()
      .filter((field) => field.errors.length > 0)
      .map((field) => String(field.name[0]));
    const stepIndex = STEPS.findIndex((step) => step.fields.some((name: string) => failing.includes(name)));
    if (stepIndex >= 0) setCurrent(stepIndex);
  };

  const countryName = (code: string | undefined) =>
    countryOptions.find((option) => option.value === code)?.label ?? code ?? '';
  const hidden = (step: number) => ({ hidden: current !== step });

  return (
    <Card data-testid="kyc-basic-form">
      <StepBar
        current={current}
        titles={STEPS.map((step) => t(`basic.steps.${step.key}`))}
        failedReason={state.status === KYC_STATUS.FAILED ? state.message : null}
      />
      <Form form={form} layout="vertical" requiredMark={false} initialValues={state.draft} className="kyc-form">
        {/* Every step's items stay mounted (hidden), so that each is validated and saved with the draft. */}
        <Form.Item
          label={t('basic.fields.firstName')}
          name="firstName"
          rules={[required, zodRule(() => englishNameSchema, locale)]}
          {...hidden(0)}
        >
          <Input autoComplete="given-name" />
        </Form.Item>
        <Form.Item
          label={t('basic.fields.lastName')}
          name="lastName"
          rules={[required, zodRule(() => englishNameSchema, locale)]}
          {...hidden(0)}
        >
          <Input autoComplete="family-name" />
        </Form.Item>
        <Form.Item
          label={t('basic.fields.nameChinese')}
          name="nameChinese"
          rules={[{ max: 50, message: validationMessage('validation.tooLong', locale) }]}
          {...hidden(0)}
        >
          <Input />
        </Form.Item>
        <Form.Item
          label={t('basic.fields.dateOfBirth')}
          name="dateOfBirth"
          rules={[required, zodRule(() => dateOfBirthSchema(), locale)]}
          {...hidden(0)}
        >
          <Input type="date" autoComplete="bday" />
        </Form.Item>
        <Form.Item label={t('basic.fields.nationality')} name="nationality" rules={[required]} {...hidden(0)}>
          <Select
            showSearch
            optionFilterProp="label"
            options={countryOptions}
            loading={countries.isPending}
            data-testid="kyc-nationality"
          />
        </Form.Item>
        <Form.Item label={t('basic.fields.residence')} name="residence" rules={[required]} {...hidden(0)}>
          <Select
            showSearch
            optionFilterProp="label"
            options={countryOptions}
            loading={countries.isPending}
            data-testid="kyc-residence"
          />
        </Form.Item>

        <Form.Item label={t('basic.fields.idType')} name="idType" rules={[required]} {...hidden(1)}>
          <Select
            options={ID_TYPES.map((type) => ({ value: type, label: t(`basic.idTypes.${type}`) }))}
            data-testid="kyc-id-type"
          />
        </Form.Item>
        <Form.Item
          label={t('basic.fields.idNumber')}
          name="idNumber"
          dependencies={['idType']}
          rules={[
            required,
            zodRule(() => idNumberSchemaFor(idType && ID_TYPES.includes(idType) ? idType : 'passport'), locale),
          ]}
          {...hidden(1)}
        >
          <Input autoComplete="off" />
        </Form.Item>

        <Form.Item
          label={t('basic.fields.address')}
          name="address"
          rules={[required, { max: 200, message: validationMessage('validation.tooLong', locale) }]}
          {...hidden(2)}
        >
          <Input.TextArea rows={3} autoComplete="street-address" />
        </Form.Item>
        <Form.Item
          label={t('basic.fields.proofOfAddressDate')}
          name="proofOfAddressDate"
          rules={[required]}
          {...hidden(2)}
        >
          <Input type="date" />
        </Form.Item>
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

      {current === REVIEW_STEP && (
        <div data-testid="kyc-review">
          <Typography.Paragraph>{t('basic.reviewHint')}</Typography.Paragraph>
          <Descriptions column={1} size="small" bordered>
            {ALL_FIELDS.map((name) => {
              const value = form.getFieldValue(name) as string | undefined;
              const shown =
                name === 'nationality' || name === 'residence'
                  ? countryName(value)
                  : name === 'idType' && value
                    ? t(`basic.idTypes.${value}`)
                    : (value ?? '');
              return (
                <Descriptions.Item key={name} label={t(`basic.fields.${name}`)}>
                  {shown}
                </Descriptions.Item>
              );
            })}
            {neededKinds.map((kind) => (
              <Descriptions.Item key={kind} label={t(`basic.documents.${kind}`)}>
                {documents.find((document) => document.kind === kind)?.fileName ?? ''}
              </Descriptions.Item>
            ))}
          </Descriptions>
        </div>
      )}

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
