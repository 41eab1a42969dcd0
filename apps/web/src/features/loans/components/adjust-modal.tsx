import {
  type LoanAdjustBody,
  type LoanAdjustCalcQuery,
  type LoanAdjustDirection,
  type LoanAdjustRecord,
  type LoanConfig,
  type LoanOrder,
  LOAN_ADJUST_DIRECTIONS,
  loanEndpoints,
} from '@meridian/contracts/loans';
import { toLocale } from '@meridian/contracts/locale';
import { validationMessage } from '@meridian/contracts/validation';
import { Alert, Button, Descriptions, Form, Input, Radio, Result, Skeleton } from 'antd';
import Decimal from 'decimal.js';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/app-modal.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { closeSecurityCheck, openSecurityCheck } from '../../../stores/modal-store.ts';
import { useAdjustCalc } from '../api/get-adjust-calc.ts';
import { useInvalidateLoans } from '../api/loan-keys.ts';
import { readAmountInput } from '../lib/amount-input.ts';
import { refusedFields } from '../../../lib/contract-errors.ts';
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
  const [direction, setDirection] = useState<LoanAdjustDirection>('ADD');
  const [amountText, setAmountText] = useState('');
  const [amountError, setAmountError] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [result, setResult] = useState<LoanAdjustRecord | null>(null);
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
        : amountError;
  const calcError = isSettled && calc.error instanceof ApiError ? calc.error.message : null;

  const confirm = () => {
    if (!preview || overBalance) return;
    setFormError(null);
    const body: LoanAdjustBody = { orderId: loan.orderId, direction, amount: preview.amount };
    openSecurityCheck({
      endpoint: loanEndpoints.adjust,
      input: { body },
      headers: { 'Idempotency-Key': crypto.randomUUID() },
      quietSuccess: true,
      onSuccess: (record) => {
        setResult(record);
        invalidate();
      },
      onFailure: (statusCode, response) => {
        const fields = refusedFields(statusCode, response.content);
        if (fields.length > 0) {
          closeSecurityCheck();
          setAmountError(fields.map((field) => field.message).join(' '));
        } else if (statusCode !== 119) {
          closeSecurityCheck();
          setFormError(response.message);
        }
      },
    });
  };

  return (
    <AppModal open title={t('adjust.title')} footer={null} onCancel={onClose} data-testid="adjust-modal">
      {result ? (
        <Result
          status="success"
          title={t('adjust.doneTitle')}
          subTitle={t('adjust.collateralAfter') + ': ' + money(result.collateralAfter, result.collateralCoin)}
          extra={
            <Button type="primary" onClick={onClose} data-testid="adjust-done">
              {t('borrow.done')}
            </Button>
          }
        />
      ) : (
        <Form layout="vertical" requiredMark={false} onFinish={confirm}>
          <Form.Item label={t('adjust.direction')}>
            <Radio.Group
              value={direction}
              onChange={(event) => {
                setDirection(event.target.value as LoanAdjustDirection);
                setAmountError(null);
              }}
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
            message={
              direction === 'ADD' ? t('adjust.marginCallHint') : t('adjust.removeLimit', { pct: config.initialLtvPct })
            }
          />
          <Form.Item
            label={t('adjust.amount')}
            validateStatus={amountRefusal ? 'error' : undefined}
            help={amountRefusal ?? undefined}
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
              value={amountText}
              onChange={(event) => {
                setAmountText(event.target.value);
                setAmountError(null);
              }}
              suffix="BTC"
              data-testid="adjust-amount"
            />
          </Form.Item>
          {calcError && (
            <Alert
              type="warning"
              showIcon
              message={calcError}
              style={{ marginBottom: 12 }}
              data-testid="adjust-calc-error"
            />
          )}
          {query !== null && !preview && !calcError && <Skeleton active paragraph={{ rows: 2 }} />}
          {preview && (
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
          )}
          {formError && (
            <Alert type="error" showIcon message={formError} style={{ marginBottom: 12 }} data-testid="adjust-error" />
          )}
          <Button
            type="primary"
            htmlType="submit"
            block
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
