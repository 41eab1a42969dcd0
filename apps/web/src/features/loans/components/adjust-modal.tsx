import {
  type LoanAdjustBody,
  type LoanAdjustCalcQuery,
  type LoanAdjustDirection,
  type LoanAdjustCalc,
  type LoanConfig,
  type LoanOrder,
  LOAN_ADJUST_DIRECTIONS,
  loanEndpoints,
} from '@meridian/contracts/loans';
import { toLocale } from '@meridian/contracts/locale';
import { validationMessage } from '@meridian/contracts/validation';
import { Alert, Button, Descriptions, Form, Input, Radio } from 'antd';
import Decimal from 'decimal.js';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/app-modal.tsx';
import { useModalForm } from '../../../hooks/use-modal-form.ts';
import { LoanDone, QuoteState } from './loan-dialog-parts.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useAdjustCalc } from '../api/get-adjust-calc.ts';
import { useInvalidateLoans } from '../api/loan-keys.ts';
import { readAmountInput } from '../lib/amount-input.ts';
import { pct, thresholdPrice } from '../lib/format.ts';
import { useDebounced } from '../lib/use-debounced.ts';
import { useWalletAvailable } from '../lib/wallet-available.ts';
import { money } from '../../../lib/money.ts';

const CALC_DEBOUNCE_MS = 300;

/**
 * Add or remove a loan's BTC collateral: adding is possible at any time, also
 * during a margin call; removing only while the LTV after stays at or below the initial LTV.
 * `loan/adjust/calc` shows the collateral, LTV and liquidation price after the change (and the most
 * that can be removed) before the security check (LOAN_ADJUST) confirms it.
 */
export function AdjustModal({ loan, config, onClose }: { loan: LoanOrder; config: LoanConfig; onClose: () => void }) {
  const { t, i18n } = useTranslation('loans');
  const locale = toLocale(i18n.language);
  const availableOf = useWalletAvailable();
  const invalidate = useInvalidateLoans();
  const adjust = useModalForm<Record<string, never>, typeof loanEndpoints.adjust>({
    endpoint: loanEndpoints.adjust,
    quietSuccess: true,
    // Every refused field is the amount's (the order and the direction are chosen, not typed).
    fieldOf: () => 'amount',
    onSuccess: invalidate,
    onClose,
  });
  const [direction, setDirection] = useState<LoanAdjustDirection>('ADD');
  const [amountText, setAmountText] = useState('');
  const amount = readAmountInput(amountText, 'BTC');
  const query: LoanAdjustCalcQuery | null =
    amount.kind === 'ok' ? { orderId: loan.orderId, direction, amount: amount.text } : null;
  const settled = useDebounced(query, CALC_DEBOUNCE_MS);
  const calc = useAdjustCalc(settled);
  const isSettled = query !== null && settled !== null && JSON.stringify(settled) === JSON.stringify(query);
  const preview = isSettled && !calc.isError ? calc.data : undefined;
  const walletBtc = availableOf('BTC');
  const overBalance = direction === 'ADD' && amount.kind === 'ok' && new Decimal(amount.text).gt(walletBtc);
  const amountRefusal =
    amount.kind === 'invalid'
      ? validationMessage(amount.refusal.messageKey, locale, amount.refusal.params)
      : overBalance
        ? t('calc.rules.overBalance', { amount: money(walletBtc, 'BTC', { unit: 'none' }), coin: 'BTC' })
        : (adjust.fieldErrors['amount'] ?? null);
  const calcError = isSettled && calc.error instanceof ApiError ? calc.error.message : null;

  const confirm = () => {
    if (!preview || overBalance) return;
    const body: LoanAdjustBody = { orderId: loan.orderId, direction, amount: preview.amount };
    adjust.submit({ body });
  };

  return (
    <AppModal open title={t('adjust.title')} footer={null} onCancel={adjust.close} data-testid="adjust-modal">
      {adjust.result ? (
        <LoanDone
          title={t('adjust.doneTitle')}
          subTitle={`${t('adjust.collateralAfter')}: ${money(adjust.result.collateralAfter, adjust.result.collateralCoin)}`}
          onDone={adjust.close}
          testId="adjust-done"
        />
      ) : (
        <Form {...adjust.formProps} layout="vertical" requiredMark={false} onFinish={confirm}>
          <AdjustDirectionField
            direction={direction}
            initialLtvPct={config.initialLtvPct}
            onChange={(next) => {
              setDirection(next);
              adjust.clearErrors();
            }}
          />
          <AdjustAmountField
            direction={direction}
            preview={preview}
            refusal={amountRefusal}
            text={amountText}
            onText={(text) => {
              setAmountText(text);
              adjust.clearErrors();
            }}
          />
          <QuoteState error={calcError} isLoading={query !== null && !preview} rows={2} testId="adjust-calc-error" />
          {preview && <AdjustPreview preview={preview} />}
          {adjust.error && (
            <Alert
              type="error"
              showIcon
              message={adjust.error}
              style={{ marginBottom: 12 }}
              data-testid="adjust-error"
            />
          )}
          <Button
            type="primary"
            htmlType="submit"
            block
            loading={adjust.isPending}
            disabled={!preview || overBalance}
            data-testid="adjust-confirm"
          >
            {t('adjust.confirm')}
          </Button>
        </Form>
      )}
    </AppModal>
  );
}

/** The collateral, LTV and liquidation price after the change, as `loan/adjust/calc` quoted them. */
function AdjustPreview({ preview }: { preview: LoanAdjustCalc }) {
  const { t } = useTranslation('loans');
  return (
    <Descriptions
      size="small"
      column={1}
      bordered
      className="loan-figures"
      style={{ marginBottom: 12 }}
      data-testid="adjust-preview"
    >
      <Descriptions.Item label={t('adjust.collateralAfter')}>
        <span data-testid="adjust-collateral-after">{money(preview.collateralAfter, 'BTC')}</span>
      </Descriptions.Item>
      <Descriptions.Item label={t('history.ltvBefore')}>{pct(preview.ltvBeforePct)}</Descriptions.Item>
      <Descriptions.Item label={t('ltv.after')}>
        <span data-testid="adjust-ltv-after">{pct(preview.ltvAfterPct)}</span>
      </Descriptions.Item>
      <Descriptions.Item label={t('adjust.liquidationPriceAfter')}>
        {thresholdPrice(preview.liquidationPriceAfter)}
      </Descriptions.Item>
    </Descriptions>
  );
}

/** Add or remove, with what each allows (adding also during a margin call; removing down to the initial LTV). */
function AdjustDirectionField({
  direction,
  initialLtvPct,
  onChange,
}: {
  direction: LoanAdjustDirection;
  initialLtvPct: LoanConfig['initialLtvPct'];
  onChange: (direction: LoanAdjustDirection) => void;
}) {
  const { t } = useTranslation('loans');
  return (
    <>
      <Form.Item label={t('adjust.direction')}>
        <Radio.Group
          value={direction}
          onChange={(event) => onChange(event.target.value as LoanAdjustDirection)}
          optionType="button"
          buttonStyle="solid"
          data-testid="adjust-direction"
          options={LOAN_ADJUST_DIRECTIONS.map((value) => ({
            value,
            label: t(value === 'ADD' ? 'adjust.add' : 'adjust.remove'),
          }))}
        />
      </Form.Item>
      <Alert
        type="info"
        showIcon
        style={{ marginBottom: 12 }}
        message={direction === 'ADD' ? t('adjust.marginCallHint') : t('adjust.removeLimit', { pct: initialLtvPct })}
      />
    </>
  );
}

/** The BTC to add or remove, with the wallet's BTC (adding) or the most that can be removed. */
function AdjustAmountField({
  direction,
  preview,
  refusal,
  text,
  onText,
}: {
  direction: LoanAdjustDirection;
  preview: LoanAdjustCalc | undefined;
  refusal: string | null;
  text: string;
  onText: (text: string) => void;
}) {
  const { t } = useTranslation('loans');
  const walletBtc = useWalletAvailable()('BTC');
  return (
    <Form.Item
      label={t('adjust.amount')}
      validateStatus={refusal ? 'error' : undefined}
      help={refusal ?? undefined}
      extra={
        direction === 'ADD'
          ? t('calc.available', { amount: money(walletBtc, 'BTC', { unit: 'none' }) })
          : preview
            ? t('adjust.maxRemovable', { amount: money(preview.maxRemovable, 'BTC', { unit: 'none' }) })
            : undefined
      }
    >
      <Input
        inputMode="decimal"
        autoComplete="off"
        value={text}
        onChange={(event) => onText(event.target.value)}
        suffix="BTC"
        data-testid="adjust-amount"
      />
    </Form.Item>
  );
}
