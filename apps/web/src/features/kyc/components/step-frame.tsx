import { Alert, Button, Flex, Steps } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The top of every verification step form (basic KYC, investor profile, AML, tax, qualified
 * investor): the reviewer's reason when the last submission failed, then the step bar with one
 * title per step (`titles`, already translated) and `current` (0-based) highlighted.
 */
export function StepBar({
  current,
  titles,
  failedReason,
}: {
  current: number;
  titles: readonly string[];
  /** The reviewer's message of a Failed submission; nothing is shown when null or undefined. */
  failedReason?: string | null;
}) {
  const { t } = useTranslation('kyc');
  return (
    <>
      {failedReason !== null && failedReason !== undefined && (
        <Alert
          data-testid="kyc-failed"
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('basic.failedTitle')}
          description={t('basic.failedText', { reason: failedReason })}
        />
      )}
      <Steps
        className="kyc-steps"
        size="small"
        current={current}
        responsive={false}
        items={titles.map((title) => ({ title }))}
        style={{ marginBottom: 24 }}
      />
    </>
  );
}

/**
 * The bottom of a step form: the last call's error, Previous (from the second step), then the
 * button that moves on (`nextLabel`, test id `kyc-next`) or, on the review step, the one that
 * submits (`submitLabel`, test id `kyc-submit`). `isNextBusy` shows the moving-on button loading
 * where moving on saves a draft to the server.
 */
export function StepActions({
  current,
  isReviewStep,
  isBusy,
  isNextBusy = false,
  error,
  nextLabel,
  submitLabel,
  onPrevious,
  onNext,
  onSubmit,
}: {
  current: number;
  isReviewStep: boolean;
  isBusy: boolean;
  isNextBusy?: boolean;
  error: string | null | undefined;
  nextLabel: string;
  submitLabel: string;
  onPrevious: () => void;
  onNext: () => void;
  onSubmit: () => void;
}) {
  const { t } = useTranslation('kyc');
  return (
    <>
      {error && <Alert data-testid="kyc-error" type="error" showIcon title={error} style={{ margin: '16px 0' }} />}
      <Flex gap={8} style={{ marginTop: 16 }} wrap>
        {current > 0 && (
          <Button onClick={onPrevious} disabled={isBusy}>
            {t('basic.previous')}
          </Button>
        )}
        {isReviewStep ? (
          <Button type="primary" loading={isBusy} onClick={onSubmit} data-testid="kyc-submit">
            {submitLabel}
          </Button>
        ) : (
          <Button type="primary" loading={isNextBusy} onClick={onNext} data-testid="kyc-next">
            {nextLabel}
          </Button>
        )}
      </Flex>
    </>
  );
}
