import type { Statement, StatementAccount, StatementLoan, StatementMovement } from '@meridian/contracts/statements';
import { stringify } from 'csv-stringify/sync';
import { PriceDecimal } from '../../platform/prices/types.ts';

/** Columns of the statement CSV, in order. */
export const STATEMENT_CSV_COLUMNS = [
  'Section',
  'Account',
  'Asset',
  'Owner',
  'Row',
  'Date (UTC)',
  'Entry',
  'Type',
  'Reference',
  'Amount',
  'Fee',
  'Balance',
  'USD value',
] as const;

/**
 * The statement as CSV (UTF-8, header row, RFC 4180 quoting): per account an OPENING row, one
 * MOVEMENT row per posting (signed amount, fee, balance after it, USD value at the day's close) and
 * a CLOSING row (USD value at the close of the last day).
 */
export function statementCsv(statement: Statement): string {
  const rows: string[][] = [];
  for (const account of statement.accounts) {
    const head = [account.section, account.type, account.asset, account.ownerRef ?? ''];
    rows.push([...head, 'OPENING', `${statement.from} 00:00:00`, '', '', '', '', '', account.opening, '']);
    for (const m of account.movements)
      rows.push([
        ...head,
        'MOVEMENT',
        m.at.slice(0, 19).replace('T', ' '),
        String(m.entryId),
        m.kind,
        m.reference,
        m.amount,
        m.fee,
        m.balanceAfter,
        m.amountUsd ?? '',
      ]);
    rows.push([
      ...head,
      'CLOSING',
      `${statement.to} 23:59:59`,
      '',
      '',
      '',
      '',
      '',
      account.closing,
      account.closingUsd ?? '',
    ]);
  }
  for (const loan of statement.loans) rows.push(...loanCsvRows(statement, loan));
  rows.push([
    'total',
    '',
    'USD',
    '',
    'CLOSING_TOTAL',
    `${statement.to} 23:59:59`,
    '',
    '',
    statement.unvaluedAssets.length > 0 ? `no price: ${statement.unvaluedAssets.join(' ')}` : '',
    '',
    '',
    '',
    statement.closingUsdTotal,
  ]);
  return stringify(rows, { header: true, columns: [...STATEMENT_CSV_COLUMNS] });
}

/**
 * A loan's rows (docs/statements.md "Loans"): account `LOAN_PRINCIPAL` (principal outstanding: each
 * movement's principal change, the fee it paid in Fee) and `LOAN_INTEREST` (interest owed: each
 * movement's interest charged minus interest paid), each with OPENING, MOVEMENT and CLOSING rows;
 * Owner is the loan's reference, Type the movement (borrow, repay, liquidation).
 */
function loanCsvRows(statement: Statement, loan: StatementLoan): string[][] {
  const rows: string[][] = [];
  // Amounts at the loan coin's scale, like the other rows (the decimals of its opening balance).
  const scale = loan.principalOpening.split('.')[1]?.length ?? 0;
  const parts = [
    { account: 'LOAN_PRINCIPAL', opening: loan.principalOpening, closing: loan.principalClosing },
    { account: 'LOAN_INTEREST', opening: loan.interestOwedOpening, closing: loan.interestOwedClosing },
  ];
  for (const part of parts) {
    const head = ['loan', part.account, loan.coin, loan.reference];
    rows.push([...head, 'OPENING', `${statement.from} 00:00:00`, '', '', '', '', '', part.opening, '']);
    let balance = new PriceDecimal(part.opening);
    for (const m of loan.movements) {
      const isPrincipal = part.account === 'LOAN_PRINCIPAL';
      const change = isPrincipal
        ? new PriceDecimal(m.principal)
        : new PriceDecimal(m.interestCharged).minus(m.interestPaid);
      balance = balance.plus(change);
      rows.push([
        ...head,
        'MOVEMENT',
        m.at.slice(0, 19).replace('T', ' '),
        String(m.entryId),
        m.kind,
        loan.reference,
        change.toFixed(scale),
        isPrincipal ? m.feePaid : new PriceDecimal(0).toFixed(scale),
        balance.toFixed(scale),
        '',
      ]);
    }
    rows.push([...head, 'CLOSING', `${statement.to} 23:59:59`, '', '', '', '', '', part.closing, '']);
  }
  return rows;
}

// ---------------------------------------------------------------- tax exports

/** What a tax row records (each maps to the tax tools' own labels below). */
export const TAX_ROW_KINDS = [
  'deposit',
  'withdrawal',
  'trade',
  'income',
  'loan',
  'loan_repayment',
  'liquidation',
  'card_spend',
  'fee',
] as const;
export type TaxRowKind = (typeof TAX_ROW_KINDS)[number];

/** One taxable event, amounts as positive decimal strings. */
export interface TaxRow {
  kind: TaxRowKind;
  at: string;
  entryId: number;
  reference: string;
  sent: { amount: string; currency: string } | null;
  received: { amount: string; currency: string } | null;
  fee: { amount: string; currency: string } | null;
  /** USD value of the sent (or received) side at the day's close; null when unknown. */
  worthUsd: string | null;
}

interface Leg {
  account: StatementAccount;
  movement: StatementMovement;
}

const abs = (text: string) => new PriceDecimal(text).abs();

/** Which postings make which tax row: entry kind, account types, side. */
const RULES: readonly { entryKind: string; types: readonly string[]; side: 'credit' | 'debit'; kind: TaxRowKind }[] = [
  { entryKind: 'DEPOSIT', types: ['USER_AVAILABLE'], side: 'credit', kind: 'deposit' },
  { entryKind: 'WITHDRAWAL_SETTLE', types: ['USER_FROZEN'], side: 'debit', kind: 'withdrawal' },
  { entryKind: 'FUND_INTEREST', types: ['USER_FUND'], side: 'credit', kind: 'income' },
  { entryKind: 'LOAN_BORROW', types: ['USER_AVAILABLE'], side: 'credit', kind: 'loan' },
  { entryKind: 'LOAN_REPAY', types: ['USER_AVAILABLE'], side: 'debit', kind: 'loan_repayment' },
  { entryKind: 'LOAN_LIQUIDATION', types: ['USER_LOAN_COLLATERAL'], side: 'debit', kind: 'liquidation' },
  { entryKind: 'CARD_CLEARING', types: ['CARD_HELD', 'CARD_AVAILABLE'], side: 'debit', kind: 'card_spend' },
];

type Amount = { amount: string; currency: string };

/**
 * Attach the entry's fees to the rows it made (the first row takes them): a fee in the asset the row
 * sends was paid out of that debit, so the sent amount is net of it; a fee in another asset (a
 * liquidation's fee in the loan coin) is that row's fee as it is. Fees left over — an entry with no
 * taxable row (a card's issuing fee, a trust's entrustment fee) or a second fee asset — become rows
 * of their own with only the fee columns.
 */
function withFees(
  rows: TaxRow[],
  fees: Amount[],
  base: Omit<TaxRow, 'kind' | 'sent' | 'received' | 'fee' | 'worthUsd'>,
): TaxRow[] {
  const left = [...fees];
  const first = rows[0];
  if (first && left.length > 0) {
    const index = Math.max(
      0,
      left.findIndex((fee) => fee.currency === first.sent?.currency),
    );
    const [fee] = left.splice(index, 1) as [Amount];
    first.fee = fee;
    if (first.sent && first.sent.currency === fee.currency)
      first.sent = { ...first.sent, amount: new PriceDecimal(first.sent.amount).minus(fee.amount).toFixed() };
  }
  for (const fee of left) rows.push({ ...base, kind: 'fee', sent: null, received: null, fee, worthUsd: null });
  return rows;
}

/** The rows one entry makes by `RULES` (fees attached by `withFees`). */
function ruleRows(entryId: number, legs: readonly Leg[]): TaxRow[] {
  const first = legs[0]!.movement;
  const rows: TaxRow[] = [];
  for (const rule of RULES) {
    if (rule.entryKind !== first.kind) continue;
    const matching = legs.filter(
      (leg) => rule.types.includes(leg.account.type) && (rule.side === 'debit') === leg.movement.amount.startsWith('-'),
    );
    // One row per asset (a card clearing may debit both the hold and the available balance).
    const byAsset = new Map<string, Leg[]>();
    for (const leg of matching) byAsset.set(leg.account.asset, [...(byAsset.get(leg.account.asset) ?? []), leg]);
    for (const [asset, assetLegs] of byAsset) {
      const total = assetLegs.reduce((sum, leg) => sum.plus(abs(leg.movement.amount)), new PriceDecimal(0));
      const worth = assetLegs.every((leg) => leg.movement.amountUsd !== null)
        ? assetLegs.reduce((sum, leg) => sum.plus(abs(leg.movement.amountUsd!)), new PriceDecimal(0)).toFixed(2)
        : null;
      const amount = { amount: total.toFixed(), currency: asset };
      rows.push({
        kind: rule.kind,
        at: first.at,
        entryId,
        reference: first.reference,
        sent: rule.side === 'debit' ? amount : null,
        received: rule.side === 'credit' ? amount : null,
        fee: null,
        worthUsd: worth,
      });
    }
  }
  return rows;
}

/**
 * The statement's taxable events, oldest first: deposits, withdrawals, swaps as trades (the
 * wallet's debit and credit of one entry), fund interest as income, loan borrow and repay as loan
 * rows, liquidated collateral and card spending as disposals. Every fee the platform took in an
 * entry (`statement.entryFees`: withdrawal, swap, loan early-repayment and liquidation, card and
 * trust fees) is in the fee columns (`withFees`). Moves between the user's own accounts (fund
 * subscriptions, trusts, card top-ups, collateral pledges, withdrawal freezes) are not taxable
 * events and are left out, except for the fee they carry (docs/statements.md "Files").
 */
export function taxRows(statement: Statement): TaxRow[] {
  const byEntry = new Map<number, Leg[]>();
  for (const account of statement.accounts)
    for (const movement of account.movements) {
      const legs = byEntry.get(movement.entryId) ?? [];
      legs.push({ account, movement });
      byEntry.set(movement.entryId, legs);
    }
  const feesByEntry = new Map<number, Amount[]>();
  for (const fee of statement.entryFees)
    feesByEntry.set(fee.entryId, [
      ...(feesByEntry.get(fee.entryId) ?? []),
      { amount: new PriceDecimal(fee.amount).toFixed(), currency: fee.asset },
    ]);
  const rows: TaxRow[] = [];
  for (const [entryId, legs] of [...byEntry].sort((a, b) => a[0] - b[0])) {
    const first = legs[0]!.movement;
    const base = { at: first.at, entryId, reference: first.reference };
    let entryRows: TaxRow[];
    if (first.kind === 'EXCHANGE_SWAP') {
      const main = legs.filter((leg) => leg.account.type === 'USER_AVAILABLE');
      const out = main.find((leg) => leg.movement.amount.startsWith('-'));
      const into = main.find((leg) => !leg.movement.amount.startsWith('-'));
      entryRows =
        out && into
          ? [
              {
                ...base,
                kind: 'trade',
                sent: { amount: abs(out.movement.amount).toFixed(), currency: out.account.asset },
                received: { amount: abs(into.movement.amount).toFixed(), currency: into.account.asset },
                fee: null,
                worthUsd: out.movement.amountUsd === null ? null : abs(out.movement.amountUsd).toFixed(2),
              },
            ]
          : [];
    } else entryRows = ruleRows(entryId, legs);
    rows.push(...withFees(entryRows, feesByEntry.get(entryId) ?? [], base));
  }
  return rows;
}

/**
 * Koinly's universal CSV format (help.koinly.io "How to create a custom CSV file with your data",
 * "Universal" template; labels from "What are tags"): Date `YYYY-MM-DD HH:mm UTC`, Sent Amount,
 * Sent Currency, Received Amount, Received Currency, Fee Amount, Fee Currency, Net Worth Amount,
 * Net Worth Currency, Label, Description, TxHash. A row with only a received side is a deposit,
 * only a sent side a withdrawal (a disposal at market value unless labelled), both a trade.
 */
export const KOINLY_COLUMNS = [
  'Date',
  'Sent Amount',
  'Sent Currency',
  'Received Amount',
  'Received Currency',
  'Fee Amount',
  'Fee Currency',
  'Net Worth Amount',
  'Net Worth Currency',
  'Label',
  'Description',
  'TxHash',
] as const;

/** Koinly's label per row kind ('' = none: a plain deposit, withdrawal/disposal or trade). */
export const KOINLY_LABELS: Record<TaxRowKind, string> = {
  deposit: '',
  withdrawal: '',
  trade: '',
  income: 'lending interest',
  loan: 'loan',
  loan_repayment: 'loan repayment',
  liquidation: '',
  card_spend: '',
  fee: '',
};

const DESCRIPTIONS: Record<TaxRowKind, string> = {
  deposit: 'Deposit',
  withdrawal: 'Withdrawal',
  trade: 'Swap',
  income: 'Fund interest',
  loan: 'Loan borrowed',
  loan_repayment: 'Loan repaid',
  liquidation: 'Loan collateral liquidated',
  card_spend: 'Card purchase',
  fee: 'Platform fee',
};

/** The tax rows as Koinly universal CSV. */
export function koinlyCsv(rows: readonly TaxRow[]): string {
  return stringify(
    rows.map((row) => [
      `${row.at.slice(0, 10)} ${row.at.slice(11, 16)} UTC`,
      row.sent?.amount ?? '',
      row.sent?.currency ?? '',
      row.received?.amount ?? '',
      row.received?.currency ?? '',
      row.fee?.amount ?? '',
      row.fee?.currency ?? '',
      row.worthUsd ?? '',
      row.worthUsd === null ? '' : 'USD',
      KOINLY_LABELS[row.kind],
      `Meridian: ${DESCRIPTIONS[row.kind]} (${row.reference})`,
      '',
    ]),
    { header: true, columns: [...KOINLY_COLUMNS] },
  );
}

/**
 * CoinTracker's CSV format (support.cointracker.io "Convert your transaction history to CoinTracker
 * CSV"): exactly the columns Date (`MM/DD/YYYY HH:MM:SS`, UTC), Received Quantity, Received
 * Currency, Sent Quantity, Sent Currency, Fee Amount, Fee Currency, Tag. Only received: a receive;
 * only sent: a send (a disposal unless tagged); both: a trade.
 */
export const COINTRACKER_COLUMNS = [
  'Date',
  'Received Quantity',
  'Received Currency',
  'Sent Quantity',
  'Sent Currency',
  'Fee Amount',
  'Fee Currency',
  'Tag',
] as const;

/** CoinTracker's tag per row kind ('' = none). */
export const COINTRACKER_TAGS: Record<TaxRowKind, string> = {
  deposit: '',
  withdrawal: '',
  trade: '',
  income: 'interest',
  loan: 'loan',
  loan_repayment: 'loan repayment',
  liquidation: '',
  card_spend: '',
  fee: '',
};

/** The tax rows as CoinTracker CSV. */
export function coinTrackerCsv(rows: readonly TaxRow[]): string {
  return stringify(
    rows.map((row) => [
      `${row.at.slice(5, 7)}/${row.at.slice(8, 10)}/${row.at.slice(0, 4)} ${row.at.slice(11, 19)}`,
      row.received?.amount ?? '',
      row.received?.currency ?? '',
      row.sent?.amount ?? '',
      row.sent?.currency ?? '',
      row.fee?.amount ?? '',
      row.fee?.currency ?? '',
      COINTRACKER_TAGS[row.kind],
    ]),
    { header: true, columns: [...COINTRACKER_COLUMNS] },
  );
}
