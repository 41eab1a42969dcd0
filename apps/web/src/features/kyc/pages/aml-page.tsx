import type { AmlState } from '@meridian/contracts/kyc';
import { Alert, Button, Card, Form, Result, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBasicKyc } from '../api/basic-kyc.ts';
import { useKycLevel } from '../api/kyc-level.ts';
import { useAmlState } from '../api/level-two.ts';
import { AmlDeclarationFields, AmlFundsFields, AmlOccupationFields } from '../components/aml-fields.tsx';
import { AmlReview } from '../components/aml-review.tsx';
import { IdentityShell } from '../components/identity-shell.tsx';
import { StepActions, StepBar } from '../components/step-frame.tsx';
import { NeedsEarlierStep, StepLinks } from '../components/step-links.tsx';
import { useAmlSteps } from '../hooks/use-aml-steps.ts';
import { AML_REVIEW_STEP, AML_STEPS, type AmlValues, initialAmlValues } from '../lib/aml-answers.ts';
import { isStepOpen } from '../lib/kyc-view.ts';
import './identity-pages.css';

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
  const { t } = useTranslation('kyc');
  const [form] = Form.useForm<AmlValues>();
  const { current, setCurrent, error, isBusy, next, submit } = useAmlSteps(form, onDone);
  const hasSanctionsLinks = Form.useWatch('hasSanctionsLinks', { form, preserve: true });

  return (
    <Card data-testid="kyc-aml-form">
      {state.current?.status === 'rejected' && (
        <Alert type="error" showIcon style={{ marginBottom: 16 }} title={t('aml.outcome.rejected.title')} />
      )}
      <StepBar current={current} titles={AML_STEPS.map((step) => t(`aml.steps.${step.key}`))} />
      {current === 0 && <Typography.Paragraph type="secondary">{t('aml.intro')}</Typography.Paragraph>}
      <Form<AmlValues>
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={initialAmlValues(state)}
        className="kyc-form"
      >
        <AmlOccupationFields isShown={current === 0} />
        <AmlFundsFields isShown={current === 1} />
        <AmlDeclarationFields isShown={current === 2} hasSanctionsLinks={hasSanctionsLinks} />
      </Form>

      {current === AML_REVIEW_STEP && (
        <div data-testid="kyc-review">
          <Typography.Paragraph>{t('aml.reviewHint')}</Typography.Paragraph>
          <AmlReview values={form.getFieldsValue(true) as AmlValues} />
        </div>
      )}

      <StepActions
        current={current}
        isReviewStep={current === AML_REVIEW_STEP}
        isBusy={isBusy}
        error={error}
        nextLabel={t('common.next')}
        submitLabel={t('aml.submit')}
        onPrevious={() => setCurrent(current - 1)}
        onNext={() => void next()}
        onSubmit={() => void submit()}
      />
    </Card>
  );
}
