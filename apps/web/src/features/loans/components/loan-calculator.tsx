import {
  type LoanBorrowBody,
  type LoanCalc,
  type LoanTerm,
  type LoanCoin,
  type LoanConfig,
  type LoanOrder,
  LOAN_COINS,
  loanBorrowBodySchema,
  loanEndpoints,
} from '@meridian/contracts/loans';
import { toLocale } from '@meridian/contracts/locale';
import { validationMessage } from '@meridian/contracts/validation';
import { Alert, Button, Card, Descriptions, Input, Radio, Select, Skeleton } from 'antd';
import Decimal from 'decimal.js';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Link, useLocation } from 'react-router';
import { ApiError } from '../../../lib/api-client.ts';
import { useSecuredAction } from '../../../hooks/use-secured-action.ts';
import { useStagedMount } from '../../../hooks/use-staged-mount.ts';
import { openActionModal } from '../../../stores/modal-store.ts';
import { useLoanCalc } from '../api/get-loan-calc.ts';
import { useLoanCoins } from '../api/get-loan-coins.ts';
import { useInvalidateLoans } from '../api/loan-keys.ts';
import {
  type CalcField,
  type CalcInputs,
  calcQueryOf,
  isLtvAboveInitial,
  readCalcInputs,
  shownAmount,
} from '../lib/calc-fields.ts';
import { contractErrors } from '../../../lib/contract-errors.ts';
import { pct, thresholdPrice } from '../lib/format.ts';
import { kycLinkOf, type LoanAccess } from '../lib/loan-access.ts';
import { useDebounced } from '../lib/use-debounced.ts';
import { useWalletAvailable } from '../lib/wallet-available.ts';
import { describedByOf, LoanField } from './loan-field.tsx';
import { LtvGauge } from './ltv-gauge.tsx';
import { money } from '../../../lib/money.ts';
import { MONEY_ROUNDING } from '@meridian/contracts/money-format';

/** The receipt of a new loan: loaded when a loan is taken, so that a guest's page does not load a modal. */
const LoanBorrowedModal = lazy(() =>
  import('./loan-borrowed-modal.tsx').then((m) => ({ default: m.LoanBorrowedModal })),
);

/** Pause after typing before the calculator asks `loan/calc`. */
const CALC_DEBOUNCE_MS = 350;

type Field = CalcField;

/**
 * The loan calculator and the borrow form in one: the coin to borrow, the term
 * with its APR (`loan/config`), and collateral ↔ amount — the field typed last drives, the other is
 * filled from `loan/calc` (the largest loan the collateral allows at the initial LTV, or the collateral
 * an amount needs); typing both gives the LTV of that pair. Interest, total, repayment date, the LTV
 * gauge and the margin-call and liquidation prices come from the same answer. Guests are asked to
 * log in, users below level 2 to verify; a verified user borrows through the security check
 * (LOAN_BORROW). Every amount rule is the server's; the form shows the ones it can know first.
 */
export function LoanCalculator({
  config,
  access,
  onBorrowed,
}: {
  config: LoanConfig;
  access: LoanAccess;
  onBorrowed?: (order: LoanOrder) => void;
}) {
  const form = useBorrowForm(config, access, onBorrowed);
  const { loanCoin, termDays, answer, calc, query, borrowed } = form;
  const calcError = query !== null && calc.error instanceof ApiError ? calc.error.message : null;
  // Mounted in five tasks — the coin, the terms, the amounts, the button, the figures — rather than
  // one (Lighthouse's total blocking time; `useStagedMount`).
  const stage = useStagedMount(5);
  return (
    <Card className="loan-calc" data-testid="loan-calculator">
      <div className="loan-calc__grid">
        <div>
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              form.borrow();
            }}
          >
            <CoinPicker coins={form.coinChoices} value={loanCoin} onChange={form.chooseCoin} />
            {stage >= 2 && <TermPicker terms={config.terms} termDays={termDays} onChange={form.setTermDays} />}
            {stage >= 3 && <CalcAmounts form={form} config={config} access={access} />}
            {stage >= 4 && (
              <>
                {calcError && <FormAlert type="warning" message={calcError} testId="loan-calc-error" />}
                {form.shownFormError && (
                  <FormAlert type="error" message={form.shownFormError} testId="loan-borrow-error" />
                )}
                <BorrowAction
                  access={access}
                  returnTo={form.returnTo}
                  isReady={form.isAnswerCurrent && !form.isLtvTooHigh}
                />
              </>
            )}
          </form>
        </div>
        <div>
          {stage >= 5 && (
            <CalcResult
              config={config}
              answer={answer}
              loanCoin={loanCoin}
              termDays={termDays}
              hasHint={!calcError}
              isLoading={calc.isFetching && query !== null}
            />
          )}
        </div>
      </div>
      {borrowed && (
        <Suspense fallback={null}>
          <LoanBorrowedModal order={borrowed} onClose={() => form.setBorrowed(null)} />
        </Suspense>
      )}
    </Card>
  );
}

/**
 * The calculator's state and actions: the coin, term and the two amounts (the field typed last
 * drives), the `loan/calc` answer for them, the refusals shown under each field and above the
 * button, and `borrow` — log in (guest), or check what the page can know first, then borrow through
 * the security check (LOAN_BORROW).
 */
function useBorrowForm(config: LoanConfig, access: LoanAccess, onBorrowed?: (order: LoanOrder) => void) {
  const { t, i18n } = useTranslation('loans');
  const locale = toLocale(i18n.language);
  const location = useLocation();
  const returnTo = `${location.pathname}${location.search}${location.hash}`;
  const coins = useLoanCoins();
  const availableOf = useWalletAvailable();
  const invalidate = useInvalidateLoans();
  const enabledCoins = (coins.data?.loanCoins ?? []).filter((coin) => coin.isEnabled).map((coin) => coin.coin);
  const coinChoices: readonly LoanCoin[] = enabledCoins.length > 0 ? enabledCoins : LOAN_COINS;
  const [loanCoin, setLoanCoin] = useState<LoanCoin>('USDT');
  const [termDays, setTermDays] = useState<number>(config.terms[0]?.termDays ?? 30);
  const [texts, setTexts] = useState<Record<Field, string>>({ collateral: '', principal: '' });
  // Fields the user typed; the others show the calculator's figure.
  const [typed, setTyped] = useState<Record<Field, boolean>>({ collateral: false, principal: false });
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<Field, string>>>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [borrowed, setBorrowed] = useState<LoanOrder | null>(null);
  const borrowCall = useSecuredAction({
    endpoint: loanEndpoints.borrow,
    quietSuccess: true,
    // Amount rules (LTV over 70 %, over the maximum, under the minimum, the wallet's balance) come
    // back as business codes, shown above the button; a refused field under its input.
    refusalsShownOn: 'form',
    fieldOf: (field) => (field === 'collateralAmount' ? 'collateral' : field === 'principal' ? 'principal' : undefined),
    onSuccess: (order) => {
      setBorrowed(order);
      setTexts({ collateral: '', principal: '' });
      setTyped({ collateral: false, principal: false });
      invalidate();
      onBorrowed?.(order);
    },
  });
  const inputs: CalcInputs = { loanCoin, termDays, texts, typed };
  const { read, query, calc, answer, isAnswerCurrent, isLtvTooHigh } = useCalcAnswer(inputs, config.initialLtvPct);
  const shown = (field: Field): string => shownAmount(field, inputs, answer);
  const clearErrors = () => {
    setFieldErrors({});
    setFormError(null);
    borrowCall.clearErrors();
  };

  const refusalText = (field: Field): string | undefined => {
    const input = read[field];
    if (input.kind === 'invalid') return validationMessage(input.refusal.messageKey, locale, input.refusal.params);
    if (field === 'principal' && isLtvTooHigh && answer) {
      return t('calc.rules.ltvOver', { pct: answer.ltvPct, max: config.initialLtvPct });
    }
    return fieldErrors[field] ?? borrowCall.fieldErrors[field];
  };

  const borrow = () => {
    if (access.kind === 'guest') {
      openActionModal('login', { returnTo });
      return;
    }
    if (access.kind !== 'ok' || !isAnswerCurrent || isLtvTooHigh) return;
    const body: LoanBorrowBody = {
      loanCoin,
      termDays,
      collateralAmount: shown('collateral'),
      principal: shown('principal'),
    };
    const errors = contractErrors(loanBorrowBodySchema, body, locale);
    if (errors.length > 0) {
      setFormError(errors.map((error) => error.errors.join(' ')).join(' '));
      return;
    }
    const minPrincipal = coins.data?.loanCoins.find((coin) => coin.coin === loanCoin)?.minPrincipal;
    const problems = problemsBeforeBorrow(t, body, availableOf('BTC'), minPrincipal);
    if (Object.keys(problems).length > 0) {
      setFieldErrors(problems);
      return;
    }
    setFormError(null);
    borrowCall.run({ body });
  };

  return {
    returnTo,
    coinChoices,
    loanCoin,
    chooseCoin: (coin: LoanCoin) => {
      setLoanCoin(coin);
      setFieldErrors({});
      borrowCall.clearErrors();
    },
    termDays,
    setTermDays,
    shown,
    edit: (field: Field, value: string) => {
      setTexts((current) => ({ ...current, [field]: value }));
      setTyped((current) => ({ ...current, [field]: value.trim() !== '' }));
      clearErrors();
    },
    refusalText,
    availableOf,
    borrow,
    query,
    calc,
    answer,
    isAnswerCurrent,
    isLtvTooHigh,
    shownFormError: formError ?? borrowCall.error,
    borrowed,
    setBorrowed,
  };
}

/** The calculator's state and actions (`useBorrowForm`). */
type BorrowForm = ReturnType<typeof useBorrowForm>;

/** The two amounts, collateral and loan, with the wallet's available BTC and the largest loan under them. */
function CalcAmounts({ form, config, access }: { form: BorrowForm; config: LoanConfig; access: LoanAccess }) {
  const { t } = useTranslation('loans');
  const { loanCoin, shown, edit, refusalText, availableOf, answer } = form;
  return (
    <>
      <AmountField
        id="loan-calc-collateral"
        label={t('calc.collateral')}
        value={shown('collateral')}
        onChange={(value) => edit('collateral', value)}
        suffix="BTC"
        help={refusalText('collateral')}
        extra={
          access.kind === 'ok'
            ? t('calc.available', {
                amount: money(availableOf('BTC'), 'BTC', {
                  unit: 'none',
                  rounding: MONEY_ROUNDING.available,
                }),
              })
            : undefined
        }
        testId="loan-collateral"
      />
      <AmountField
        id="loan-calc-principal"
        label={t('calc.amount')}
        value={shown('principal')}
        onChange={(value) => edit('principal', value)}
        suffix={loanCoin}
        help={refusalText('principal')}
        extra={
          answer?.maxPrincipal
            ? t('calc.maxAmount', {
                amount: money(answer.maxPrincipal, loanCoin, {
                  unit: 'none',
                  rounding: MONEY_ROUNDING.available,
                }),
                coin: loanCoin,
                pct: config.initialLtvPct,
              })
            : undefined
        }
        testId="loan-principal"
      />
    </>
  );
}

/**
 * The rules the page can check before asking the server, per field: the collateral within the
 * wallet's available BTC (`available`, a decimal string), the amount at least the coin's minimum
 * (`minPrincipal`, when known). Empty when both hold.
 */
function problemsBeforeBorrow(
  t: TFunction<'loans'>,
  body: LoanBorrowBody,
  available: string,
  minPrincipal: string | undefined,
): Partial<Record<Field, string>> {
  const problems: Partial<Record<Field, string>> = {};
  if (new Decimal(body.collateralAmount).gt(available)) {
    problems.collateral = t('calc.rules.overBalance', {
      amount: money(available, 'BTC', { unit: 'none' }),
      coin: 'BTC',
    });
  }
  if (minPrincipal && new Decimal(body.principal).lt(minPrincipal)) {
    problems.principal = t('calc.rules.min', {
      amount: money(minPrincipal, body.loanCoin, { unit: 'none' }),
      unit: body.loanCoin,
    });
  }
  return problems;
}

/** The form's button: log in (guest), verify (below level 2), or borrow. */
function BorrowAction({ access, returnTo, isReady }: { access: LoanAccess; returnTo: string; isReady: boolean }) {
  const { t } = useTranslation('loans');
  if (access.kind === 'guest') {
    return (
      <Button
        type="primary"
        block
        size="large"
        onClick={() => openActionModal('login', { returnTo })}
        data-testid="loan-login-to-borrow"
      >
        {t('calc.loginToBorrow')}
      </Button>
    );
  }
  if (access.kind === 'kyc') {
    return (
      <Alert
        type="warning"
        showIcon
        message={t('calc.verifyTitle')}
        description={t('calc.verifyBody')}
        data-testid="loan-verify"
        action={
          <Link to={kycLinkOf(access.route, returnTo)}>
            <Button type="primary" size="small">
              {t('calc.verify')}
            </Button>
          </Link>
        }
      />
    );
  }
  return (
    <Button type="primary" htmlType="submit" block size="large" disabled={!isReady} data-testid="loan-borrow">
      {t('calc.borrow')}
    </Button>
  );
}

/** The calculator's figures for the current answer: the LTV gauge, price, rates, interest, total, due date and the two threshold prices. */
function CalcResult({
  config,
  answer,
  loanCoin,
  termDays,
  hasHint,
  isLoading,
}: {
  config: LoanConfig;
  answer: LoanCalc | null;
  loanCoin: LoanCoin;
  termDays: number;
  /** Whether to show the hint (or the loading placeholder) while there is no answer; false while an error is shown. */
  hasHint: boolean;
  isLoading: boolean;
}) {
  const { t } = useTranslation('loans');
  const term = config.terms.find((item) => item.termDays === termDays);
  return (
    <div className="loan-calc__result" data-testid="loan-calc-result">
      <LtvGauge
        ltvPct={answer?.ltvPct ?? null}
        levels={{
          initialPct: config.initialLtvPct,
          marginCallPct: config.marginCallLtvPct,
          liquidationPct: config.liquidationLtvPct,
        }}
        testId="loan-calc-ltv"
      />
      <Descriptions size="small" column={1} style={{ marginTop: 16 }} className="loan-figures">
        <Descriptions.Item label={t('calc.btcPrice')}>{answer ? money(answer.price, 'USD') : '—'}</Descriptions.Item>
        <Descriptions.Item label={t('calc.aprLabel')}>{term ? pct(term.annualRatePct) : '—'}</Descriptions.Item>
        <Descriptions.Item label={t('calc.dailyRate')}>{term ? pct(term.dailyRatePct) : '—'}</Descriptions.Item>
        <Descriptions.Item label={t('calc.interest')}>
          <span data-testid="loan-calc-interest">
            {answer ? money(answer.interest, loanCoin, { rounding: MONEY_ROUNDING.owed }) : '—'}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={t('calc.totalRepay')}>
          {answer ? money(answer.totalRepay, loanCoin, { rounding: MONEY_ROUNDING.owed }) : '—'}
        </Descriptions.Item>
        <Descriptions.Item label={t('calc.dueDate')}>
          <span data-testid="loan-calc-due" title={t('calc.dueHelp')}>
            {answer ? t('loans.dueAt', { date: answer.repaymentDate }) : '—'}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={t('calc.marginCallPrice')}>
          {answer ? thresholdPrice(answer.marginCallPrice) : '—'}
        </Descriptions.Item>
        <Descriptions.Item label={t('calc.liquidationPrice')}>
          <span data-testid="loan-calc-liquidation-price">
            {answer ? thresholdPrice(answer.liquidationPrice) : '—'}
          </span>
        </Descriptions.Item>
      </Descriptions>
      {!answer && hasHint && (
        <p className="loan-calc__hint">{isLoading ? <Skeleton.Input active size="small" /> : t('calc.enterAmount')}</p>
      )}
    </div>
  );
}

/** The term buttons, each with its APR. */
function TermPicker({
  terms,
  termDays,
  onChange,
}: {
  terms: readonly LoanTerm[];
  termDays: number;
  onChange: (termDays: number) => void;
}) {
  const { t } = useTranslation('loans');
  return (
    <LoanField label={t('calc.term')} labelId="loan-calc-term-label">
      <Radio.Group
        value={termDays}
        onChange={(event) => onChange(Number(event.target.value))}
        optionType="button"
        buttonStyle="solid"
        className="loan-terms"
        aria-labelledby="loan-calc-term-label"
        data-testid="loan-term"
        options={terms.map((item) => ({
          value: item.termDays,
          label: (
            <span data-testid={`loan-term-${item.termDays}`}>
              {t('calc.termDays', { count: item.termDays })}
              <small className="loan-terms__apr">{t('calc.apr', { rate: item.annualRatePct })}</small>
            </span>
          ),
        }))}
      />
    </LoanField>
  );
}

/** A calculator or borrow error above the button. */
function FormAlert({ type, message, testId }: { type: 'warning' | 'error'; message: string; testId: string }) {
  return <Alert type={type} showIcon message={message} style={{ marginBottom: 16 }} data-testid={testId} />;
}

/** An amount input with its refusal (`help`, shown as an error) and a note under it (`extra`). */
function AmountField({
  id,
  label,
  value,
  onChange,
  suffix,
  help,
  extra,
  testId,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  suffix: string;
  help: string | undefined;
  extra: string | undefined;
  testId: string;
}) {
  return (
    <LoanField label={label} htmlFor={id} error={help} extra={extra}>
      <Input
        id={id}
        status={help ? 'error' : undefined}
        aria-invalid={help ? true : undefined}
        aria-describedby={describedByOf(id, help, extra)}
        inputMode="decimal"
        autoComplete="off"
        value={value}
        onChange={(event) => onChange(event.target.value)}
        suffix={suffix}
        data-testid={testId}
      />
    </LoanField>
  );
}

/**
 * The calculator's answer for `inputs` (asked after a pause in typing): what each field reads,
 * the query, the answer shown (null while there is none or it failed), whether it answers what is
 * typed now, and whether its LTV is over the initial one.
 */
function useCalcAnswer(inputs: CalcInputs, initialLtvPct: string) {
  const read = readCalcInputs(inputs);
  const query = calcQueryOf(inputs);
  const settledQuery = useDebounced(query, CALC_DEBOUNCE_MS);
  const calc = useLoanCalc(settledQuery);
  const answer = query !== null && calc.data && !calc.isError ? calc.data : null;
  // Borrow only on the answer to what is typed now, not on the previous one still shown while it loads.
  const isAnswerCurrent =
    answer !== null && !calc.isPlaceholderData && JSON.stringify(settledQuery) === JSON.stringify(query);
  const isLtvTooHigh = isLtvAboveInitial(answer, initialLtvPct);
  return { read, query, calc, answer, isAnswerCurrent, isLtvTooHigh };
}

/** The coin to borrow. */
function CoinPicker({
  coins,
  value,
  onChange,
}: {
  coins: readonly LoanCoin[];
  value: LoanCoin;
  onChange: (coin: LoanCoin) => void;
}) {
  const { t } = useTranslation('loans');
  return (
    <LoanField label={t('calc.loanCoin')} htmlFor="loan-calc-coin">
      <Select<LoanCoin>
        id="loan-calc-coin"
        value={value}
        onChange={onChange}
        data-testid="loan-coin"
        options={coins.map((coin) => ({ value: coin, label: coin }))}
      />
    </LoanField>
  );
}
