import {
  KYC_STATUS,
  type KycDocument,
  QUALIFIED_VALIDITY_MONTHS,
  type QualifyState,
  type QualifySubmission,
  qualifySubmissionSchema,
} from '@meridian/contracts/kyc';
import { toLocale } from '@meridian/contracts/locale';
import { validationMessage } from '@meridian/contracts/validation';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Checkbox, Descriptions, Form, Input, Radio, Result, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, isSuccess } from '../../../lib/api-client.ts';
import { applyQualified } from '../api/apply-qualified.ts';
import { useBasicKyc } from '../api/basic-kyc.ts';
import { useKycLevel } from '../api/kyc-level.ts';
import { QUALIFICATION_QUERY_KEY, useQualification } from '../api/qualification.ts';
import { DocumentUpload } from '../components/document-upload.tsx';
import { IdentityShell } from '../components/identity-shell.tsx';
import { StepActions, StepBar } from '../components/step-frame.tsx';
import { NeedsEarlierStep, StepLinks, UnderReviewResult } from '../components/step-links.tsx';
import { formatDateTime } from '../lib/format-time.ts';
import { applyNestedServerErrors } from '../lib/server-field-errors.ts';
import { zodRule } from '../lib/zod-rule.ts';
import { isStepOpen } from '../lib/kyc-view.ts';
import './identity-pages.css';

const STEPS = ['declaration', 'evidence', 'review'] as const;
const FORM_ROOTS = ['type', 'portfolioHkd', 'totalAssetsHkd', 'isDeclared'];
/** The amount rules of the contract (a HK$ decimal string at or above the threshold). */
const portfolioSchema = qualifySubmissionSchema.options[0].shape.portfolioHkd;
const totalAssetsSchema = qualifySubmissionSchema.options[1].shape.totalAssetsHkd;
/** KYC_STATUS 4: a qualified-investor status past its 12 months. */
const EXPIRED = 4;

interface QualifyValues {
  type?: 'individual' | 'corporation';
  portfolioHkd?: string;
  totalAssetsHkd?: string;
  isDeclared?: boolean;
}

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
  const { t, i18n } = useTranslation('kyc');
  const locale = toLocale(i18n.language);
  const queryClient = useQueryClient();
  const [form] = Form.useForm<QualifyValues>();
  const [current, setCurrent] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const [isBusy, setIsBusy] = useState(false);
  const [evidence, setEvidence] = useState(initialDocuments.filter((each) => each.kind === 'qualifiedEvidence'));
  const type = Form.useWatch('type', { form, preserve: true });
  const required = { required: true, message: validationMessage('validation.required', locale) };

  const next = async () => {
    setError(null);
    if (current === 0) {
      try {
        await form.validateFields(['type', 'portfolioHkd', 'totalAssetsHkd', 'isDeclared']);
      } catch {
        return;
      }
    }
    if (current === 1 && evidence.length === 0) {
      setError(t('basic.missingDocument'));
      return;
    }
    setCurrent(current + 1);
  };

  const submit = async () => {
    setError(null);
    const values = form.getFieldsValue(true) as QualifyValues;
    const body = (
      values.type === 'corporation'
        ? { type: 'corporation', totalAssetsHkd: (values.totalAssetsHkd ?? '').trim(), isDeclared: values.isDeclared }
        : { type: 'individual', portfolioHkd: (values.portfolioHkd ?? '').trim(), isDeclared: values.isDeclared }
    ) as QualifySubmission;
    setIsBusy(true);
    const response = await applyQualified(body);
    setIsBusy(false);
    if (isSuccess(response)) {
      queryClient.setQueryData(QUALIFICATION_QUERY_KEY, response.content);
      return;
    }
    const { message, failing } = applyNestedServerErrors(form, response, FORM_ROOTS);
    setError(message);
    if (failing.length > 0) setCurrent(0);
  };

  const shown = (step: number) => ({ style: { display: current === step ? undefined : 'none' } });
  const values = form.getFieldsValue(true) as QualifyValues;
  const amount = type === 'corporation' ? values.totalAssetsHkd : values.portfolioHkd;

  return (
    <Card data-testid="kyc-qualified-form">
      <StepBar
        current={current}
        titles={STEPS.map((step) => t(`qualified.steps.${step}`))}
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
        <div {...shown(0)}>
          <Form.Item label={t('qualified.fields.type')} name="type" rules={[required]}>
            <Radio.Group
              className="kyc-choice-list"
              data-testid="qualified-type"
              options={[
                { value: 'individual', label: t('qualified.types.individual') },
                { value: 'corporation', label: t('qualified.types.corporation') },
              ]}
            />
          </Form.Item>
          {type !== 'corporation' ? (
            <Form.Item
              label={t('qualified.fields.portfolioHkd')}
              extra={t('qualified.portfolioHint')}
              name="portfolioHkd"
              rules={[required, zodRule(() => portfolioSchema, locale)]}
            >
              <Input inputMode="decimal" prefix="HK$" autoComplete="off" />
            </Form.Item>
          ) : (
            <Form.Item
              label={t('qualified.fields.totalAssetsHkd')}
              extra={t('qualified.assetsHint')}
              name="totalAssetsHkd"
              rules={[required, zodRule(() => totalAssetsSchema, locale)]}
            >
              <Input inputMode="decimal" prefix="HK$" autoComplete="off" />
            </Form.Item>
          )}
          <Form.Item
            name="isDeclared"
            valuePropName="checked"
            rules={[
              {
                validator: async (_rule, value: boolean | undefined) => {
                  if (value !== true) throw new Error(validationMessage('validation.declaration', locale));
                },
              },
            ]}
          >
            <Checkbox data-testid="qualified-declare">{t(`qualified.declaration.${type ?? 'individual'}`)}</Checkbox>
          </Form.Item>
        </div>
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
        <div data-testid="kyc-review">
          <Typography.Paragraph>{t('basic.reviewHint')}</Typography.Paragraph>
          <Descriptions column={1} size="small" bordered className="kyc-review-list">
            <Descriptions.Item label={t('qualified.fields.type')}>
              {t(`qualified.types.${type ?? 'individual'}`)}
            </Descriptions.Item>
            <Descriptions.Item
              label={t(type === 'corporation' ? 'qualified.fields.totalAssetsHkd' : 'qualified.fields.portfolioHkd')}
            >
              {amount ? `HK$ ${amount}` : ''}
            </Descriptions.Item>
            <Descriptions.Item label={t('qualified.evidence')}>
              {evidence.map((each) => each.fileName).join(', ')}
            </Descriptions.Item>
          </Descriptions>
        </div>
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
