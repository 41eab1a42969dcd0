import {
  type LoanOrder,
  type LoanRepayBody,
  type LoanRepayCalcQuery,
  type LoanRepayCalc,
  type LoanRepayType,
  LOAN_REPAY_TYPES,
  loanEndpoints,
} from '@meridian/contracts/loans';
import { toLocale } from '@meridian/contracts/locale';
import { validationMessage } from '@meridian/contracts/validation';
import { Alert, Button, Descriptions, Form, Input, Radio } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AppModal } from '../../../components/app-modal.tsx';
import { useModalForm } from '../../../hooks/use-modal-form.ts';
import { LoanDone, QuoteState } from './loan-dialog-parts.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { useRepayCalc } from '../api/get-repay-calc.ts';
import { useInvalidateLoans } from '../api/loan-keys.ts';
import { readAmountInput } from '../lib/amount-input.ts';
import { pct } from '../lib/format.ts';
import { isZeroAmount } from '../lib/is-zero.ts';
import { useDebounced } from '../lib/use-debounced.ts';
import { useWalletAvailable } from '../lib/wallet-available.ts';
import { money } from '../../../lib/money.ts';
import { MONEY_ROUNDING } from '@meridian/contracts/money-format';

const CALC_DEBOUNCE_MS = 300;

/**
 * Repay a loan: from the wallet's loan coin or with collateral (BTC sold at the
 * current price), in full or in part (interest first, then principal). `loan/repay/calc` shows the
 * exact split — interest, overdue interest, principal, the early-repayment charge, the BTC sold and
 * released — before the security check (LOAN_REPAY) confirms it.
 */
export function RepayModal({ loan, onClose }: { loan: LoanOrder; onClose: () => void }) {
  const { t, i18n } = useTranslation('loans');
  const locale = toLocale(i18n.language);
  const invalidate = useInvalidateLoans();
  const repay = useModalForm<Record<string, never>, typeof loanEndpoints.repay>({
    endpoint: loanEndpoints.repay,
    quietSuccess: true,
    // Every refused field is the amount's (the order and the source are chosen, not typed).
    fieldOf: () => 'amount',
    onSuccess: invalidate,
    onClose,
  });
  const [repayType, setRepayType] = useState<LoanRepayType>('WALLET');
  const [isFull, setIsFull] = useState(true);
  const [amountText, setAmountText] = useState('');
  const amount = isFull ? ({ kind: 'empty' } as const) : readAmountInput(amountText, loan.loanCoin);
  const query: LoanRepayCalcQuery | null =
    isFull || amount.kind === 'ok'
      ? { orderId: loan.orderId, repayType, ...(amount.kind === 'ok' && { amount: amount.text }) }
      : null;
  const settled = useDebounced(query, CALC_DEBOUNCE_MS);
  const calc = useRepayCalc(settled);
  const quote =
    query !== null && settled !== null && JSON.stringify(settled) === JSON.stringify(query) ? calc.data : undefined;
  const amountRefusal =
    amount.kind === 'invalid'
      ? validationMessage(amount.refusal.messageKey, locale, amount.refusal.params)
      : (repay.fieldErrors['amount'] ?? null);
  const calcError = query !== null && calc.error instanceof ApiError ? calc.error.message : null;

  const confirm = () => {
    if (!quote) return;
    const body: LoanRepayBody = {
      orderId: loan.orderId,
      repayType,
      ...(amount.kind === 'ok' && { amount: amount.text }),
    };
    repay.submit({ body });
  };

  return (
    <AppModal open title={t('repay.title')} footer={null} onCancel={repay.close} data-testid="repay-modal">
      {repay.result ? (
        <LoanDone
          title={t('repay.doneTitle')}
          subTitle={money(repay.result.amount, repay.result.loanCoin)}
          onDone={repay.close}
          testId="repay-done"
        />
      ) : (
        <Form {...repay.formProps} layout="vertical" requiredMark={false} onFinish={confirm}>
          <RepayChoices
            loan={loan}
            repayType={repayType}
            isFull={isFull}
            onRepayType={setRepayType}
            onIsFull={(next) => {
              setIsFull(next);
              repay.clearErrors();
            }}
          />
          {!isFull && (
            <Form.Item
              validateStatus={amountRefusal ? 'error' : undefined}
              help={amountRefusal ?? t('repay.amountHint')}
            >
              <Input
                inputMode="decimal"
                autoComplete="off"
                value={amountText}
                onChange={(event) => {
                  setAmountText(event.target.value);
                  repay.clearErrors();
                }}
                suffix={loan.loanCoin}
                data-testid="repay-amount"
              />
            </Form.Item>
          )}
          <QuoteState error={calcError} isLoading={query !== null && !quote} rows={3} testId="repay-calc-error" />
          {quote && <RepayQuote quote={quote} />}
          {repay.error && (
            <Alert type="error" showIcon message={repay.error} style={{ marginBottom: 12 }} data-testid="repay-error" />
          )}
          <Button
            type="primary"
            htmlType="submit"
            block
            loading={repay.isPending}
            disabled={!quote}
            data-testid="repay-confirm"
          >
            {t('repay.confirm')}
          </Button>
        </Form>
      )}
    </AppModal>
  );
}

/**
 * The split `loan/repay/calc` quoted: interest (overdue too), principal, the early-repayment
 * charge, the total, the BTC sold and released, the debt and LTV after.
 */
function RepayQuote({ quote }: { quote: LoanRepayCalc }) {
  const { t } = useTranslation('loans');
  const owed = (amount: string) => money(amount, quote.loanCoin, { rounding: MONEY_ROUNDING.owed });
  return (
    <>
      <Descriptions
        size="small"
        column={1}
        bordered
        title={t('repay.quote')}
        className="loan-figures"
        style={{ marginBottom: 12 }}
        data-testid="repay-quote"
      >
        <Descriptions.Item label={t('repay.interest')}>{owed(quote.interest)}</Descriptions.Item>
        {!isZeroAmount(quote.overdueInterest) && (
          <Descriptions.Item label={t('repay.overdueInterest')}>{owed(quote.overdueInterest)}</Descriptions.Item>
        )}
        <Descriptions.Item label={t('repay.principal')}>{owed(quote.principal)}</Descriptions.Item>
        <Descriptions.Item label={t('repay.earlyCharge')}>
          <span data-testid="repay-fee">{owed(quote.fee)}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('repay.total')}>
          <strong data-testid="repay-total">{owed(quote.amount)}</strong>
        </Descriptions.Item>
        {quote.repayType === 'COLLATERAL' && (
          <Descriptions.Item label={t('repay.collateralSold')}>
            <span data-testid="repay-collateral-sold">{money(quote.collateralSold, 'BTC')}</span>
          </Descriptions.Item>
        )}
        {quote.price && <Descriptions.Item label={t('repay.priceUsed')}>{money(quote.price, 'USD')}</Descriptions.Item>}
        <Descriptions.Item label={t('repay.collateralReleased')}>
          <span data-testid="repay-collateral-released">{money(quote.collateralReleased, 'BTC')}</span>
        </Descriptions.Item>
        {!quote.isFull && <Descriptions.Item label={t('repay.debtAfter')}>{owed(quote.debtAfter)}</Descriptions.Item>}
        {quote.ltvAfterPct && <Descriptions.Item label={t('ltv.after')}>{pct(quote.ltvAfterPct)}</Descriptions.Item>}
      </Descriptions>
      {!isZeroAmount(quote.fee) && (
        <Alert type="info" showIcon message={t('repay.early')} style={{ marginBottom: 12 }} />
      )}
    </>
  );
}

/** The source (wallet or collateral, with the wallet's balance of the loan coin) and full or partial. */
function RepayChoices({
  loan,
  repayType,
  isFull,
  onRepayType,
  onIsFull,
}: {
  loan: LoanOrder;
  repayType: LoanRepayType;
  isFull: boolean;
  onRepayType: (repayType: LoanRepayType) => void;
  onIsFull: (isFull: boolean) => void;
}) {
  const { t } = useTranslation('loans');
  const availableOf = useWalletAvailable();
  const walletCoin = availableOf(loan.loanCoin);
  return (
    <>
      <Form.Item label={t('repay.source')}>
        <Radio.Group
          value={repayType}
          onChange={(event) => onRepayType(event.target.value as LoanRepayType)}
          optionType="button"
          buttonStyle="solid"
          data-testid="repay-source"
          options={LOAN_REPAY_TYPES.map((type) => ({
            value: type,
            label: t(type === 'WALLET' ? 'repay.sourceWallet' : 'repay.sourceCollateral'),
          }))}
        />
      </Form.Item>
      <Form.Item
        label={t('repay.amount')}
        extra={
          repayType === 'WALLET'
            ? t('repay.walletBalance', {
                amount: money(walletCoin, loan.loanCoin, { unit: 'none', rounding: MONEY_ROUNDING.available }),
                coin: loan.loanCoin,
              })
            : undefined
        }
      >
        <Radio.Group
          value={isFull}
          onChange={(event) => onIsFull(Boolean(event.target.value))}
          data-testid="repay-mode"
          options={[
            { value: true, label: t('repay.full') },
            { value: false, label: t('repay.partial') },
          ]}
        />
      </Form.Item>
    </>
  );
}
