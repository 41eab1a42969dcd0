import { z } from 'zod';
import { uuidString } from './limits.ts';
import { defineEndpoint } from './endpoint.ts';

/**
 * Account statements and tax exports ("Tax export"; docs/statements.md).
 *
 * A statement covers whole UTC days `from`–`to` (inclusive, at most `STATEMENT_RANGE_DAYS_MAX`
 * days). Per ledger account of the user — the main wallet per coin (available and frozen), the
 * funds (current shares, fixed principal, shares held for a wire), loan collateral, each card's
 * balance and holds, each trust's holding — it gives the opening balance (every posting before
 * `from`), every movement in the range with its entry kind, reference and fee, and the closing
 * balance, so that one period's closing balance is the next period's opening. Amounts on the wire
 * are decimal strings in the account's asset; USD values are decimal strings (2 decimals) at the
 * close of the movement's day (docs/statements.md "Prices").
 *
 * Generation runs in the background, at most one per user at a time: `POST statements/generations`
 * starts one, `GET statements/generations/latest` finds the last one, `GET statements/generations/:id` polls its progress and returns the statement when it
 * is done, `GET statements/generations/:id/file?format=` downloads it as PDF, CSV, or the CSV that
 * Koinly (universal format) or CoinTracker import.
 */

/** The longest range of one statement, in days (one year, leap years included). */
export const STATEMENT_RANGE_DAYS_MAX = 366;

const DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 86_400_000;

/**
 * The earliest day a statement may cover: the Bitcoin genesis block (2009-01-03), before which no
 * asset the ledger holds could have been owned (docs/statements.md "Ranges").
 */
export const STATEMENT_EARLIEST_DAY = '2009-01-03';

/**
 * A UTC calendar day `YYYY-MM-DD` that exists (2026-02-30 is refused) and is not before
 * `STATEMENT_EARLIEST_DAY` (`validation.statementRangeTooEarly`).
 */
const daySchema = z
  .string()
  .max(10, { abort: true })
  .regex(DATE_PATTERN, { error: 'validation.date' })
  .refine(
    (text) =>
      !Number.isNaN(Date.parse(`${text}T00:00:00Z`)) && new Date(`${text}T00:00:00Z`).toISOString().startsWith(text),
    {
      error: 'validation.date',
      abort: true,
    },
  )
  .refine((text) => text >= STATEMENT_EARLIEST_DAY, { error: 'validation.statementRangeTooEarly', abort: true })
  .meta({
    format: 'date',
    description: `A UTC day YYYY-MM-DD that exists, from ${STATEMENT_EARLIEST_DAY} (the Bitcoin genesis block); \`from\` not after today, \`to\` not after the last day of the current UTC month and at most ${STATEMENT_RANGE_DAYS_MAX} days after \`from\`.`,
    examples: ['2026-01-01'],
  });

/** The last day a statement may end on: the last day of the current UTC month (`today` is `YYYY-MM-DD`). */
export function statementLatestDay(today: string): string {
  const [year, month] = today.split('-').map(Number) as [number, number];
  return new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
}

/** Days from `from` to `to` inclusive (both `YYYY-MM-DD`, UTC). */
export function statementRangeDays(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1;
}

/**
 * `POST statements/generations`: the range of the statement (UTC days, inclusive) and the language
 * of its PDF. A day before `STATEMENT_EARLIEST_DAY`, `to` before `from`, more than 366 days, a `from`
 * in the future or a `to` after the current month are refused naming the field.
 */
export const statementRequestSchema = z
  .object({
    from: daySchema,
    to: daySchema,
  })
  .strict()
  .superRefine((body, context) => {
    const today = new Date().toISOString().slice(0, 10);
    if (body.to < body.from)
      context.addIssue({ code: 'custom', path: ['to'], message: 'validation.statementRangeOrder' });
    else if (statementRangeDays(body.from, body.to) > STATEMENT_RANGE_DAYS_MAX)
      context.addIssue({ code: 'custom', path: ['to'], message: 'validation.statementRangeTooLong' });
    else if (body.to > statementLatestDay(today))
      context.addIssue({ code: 'custom', path: ['to'], message: 'validation.statementRangeEndFuture' });
    if (body.from > today)
      context.addIssue({ code: 'custom', path: ['from'], message: 'validation.statementRangeFuture' });
  });
export type StatementRequest = z.infer<typeof statementRequestSchema>;

/** Where an account belongs on the statement (the account overview's sections). */
export const STATEMENT_SECTIONS = ['main', 'fund', 'loan', 'card', 'trust'] as const;
export type StatementSection = (typeof STATEMENT_SECTIONS)[number];

/** One movement of an account: one posting of a ledger entry. */
export const statementMovementSchema = z.object({
  /** When the entry was posted (ISO 8601, UTC). */
  at: z.string(),
  entryId: z.number().int(),
  /** The ledger entry kind (`DEPOSIT`, `EXCHANGE_SWAP`, `LOAN_BORROW`, …; docs/ledger.md). */
  kind: z.string(),
  /** What the entry is about (`withdrawal:42`, `swap:…`, `loan:7`). */
  reference: z.string(),
  /** Signed decimal in the account's asset: positive credited the account. */
  amount: z.string(),
  /** Fee the platform took in the same entry and asset (decimal, "0" when none). */
  fee: z.string(),
  /** The amount's USD value at the close of its UTC day; null when no price is known. */
  amountUsd: z.string().nullable(),
  /** The account's balance after this movement (decimal). */
  balanceAfter: z.string(),
});
export type StatementMovement = z.infer<typeof statementMovementSchema>;

/** One account of the statement. */
export const statementAccountSchema = z.object({
  section: z.enum(STATEMENT_SECTIONS),
  /** The ledger account type (`USER_AVAILABLE`, `CARD_HELD`, `TRUST_HOLDING`, …). */
  type: z.string(),
  asset: z.string(),
  /** Which card (`**** 1234`, its last digits) or trust (its name) the account belongs to; null for the user's own. */
  ownerRef: z.string().nullable(),
  opening: z.string(),
  closing: z.string(),
  /** The closing balance's USD value at the close of `to`; null when no price is known. */
  closingUsd: z.string().nullable(),
  movements: z.array(statementMovementSchema),
});
export type StatementAccount = z.infer<typeof statementAccountSchema>;

/** A fee the platform took in one ledger entry (its postings to the platform's fee account), per asset. */
export const statementEntryFeeSchema = z.object({
  entryId: z.number().int(),
  asset: z.string(),
  /** Positive decimal in `asset`. */
  amount: z.string(),
});
export type StatementEntryFee = z.infer<typeof statementEntryFeeSchema>;

/** What changed a loan's debt: its borrow, a repayment or a liquidation (one ledger entry each). */
export const STATEMENT_LOAN_MOVEMENT_KINDS = ['borrow', 'repay', 'liquidation'] as const;

/**
 * One change of a loan's debt, decimals of the loan coin: `principal` the signed change of the
 * principal outstanding (+ borrowed, − repaid), `interestCharged` the interest that became owed
 * (the term interest at borrow, overdue interest when it is paid), `interestPaid` and `feePaid`
 * (early-repayment or liquidation fee) what the entry paid.
 */
export const statementLoanMovementSchema = z.object({
  at: z.string(),
  entryId: z.number().int(),
  kind: z.enum(STATEMENT_LOAN_MOVEMENT_KINDS),
  principal: z.string(),
  interestCharged: z.string(),
  interestPaid: z.string(),
  feePaid: z.string(),
});
export type StatementLoanMovement = z.infer<typeof statementLoanMovementSchema>;

/**
 * One loan of the user over the range (docs/statements.md "Loans"): principal outstanding and
 * interest owed at the opening and the closing, the period's movements and their totals. Closing =
 * opening + movements, so one period's closing is the next period's opening.
 */
export const statementLoanSchema = z.object({
  /** The ledger reference of the loan (`loan:7`). */
  reference: z.string(),
  coin: z.string(),
  principalOpening: z.string(),
  principalClosing: z.string(),
  interestOwedOpening: z.string(),
  interestOwedClosing: z.string(),
  interestCharged: z.string(),
  interestPaid: z.string(),
  feesPaid: z.string(),
  movements: z.array(statementLoanMovementSchema),
});
export type StatementLoan = z.infer<typeof statementLoanSchema>;

/** A generated statement. */
export const statementSchema = z.object({
  from: z.string(),
  to: z.string(),
  generatedAt: z.string(),
  accounts: z.array(statementAccountSchema),
  /** The sum of the accounts' closing USD values (decimal, 2 places); excludes `unvaluedAssets`. */
  closingUsdTotal: z.string(),
  /**
   * Assets held at the close of `to` with no USD price for that day: their accounts' `closingUsd` is
   * null and `closingUsdTotal` leaves them out, said explicitly on every rendering.
   */
  unvaluedAssets: z.array(z.string()).default([]),
  /** Every fee the platform took in an entry of the statement, per entry and asset (the tax exports' fee columns). */
  entryFees: z.array(statementEntryFeeSchema).default([]),
  /** The user's loans with a debt or a movement in the range. */
  loans: z.array(statementLoanSchema).default([]),
});
export type Statement = z.infer<typeof statementSchema>;

export const STATEMENT_GENERATION_STATUSES = ['RUNNING', 'DONE', 'FAILED'] as const;

/** A statement generation: its progress, and the statement once done. */
export const statementGenerationSchema = z.object({
  id: z.string(),
  from: z.string(),
  to: z.string(),
  status: z.enum(STATEMENT_GENERATION_STATUSES),
  /** 0–100. */
  progressPercent: z.number().int(),
  createdAt: z.string(),
  statement: statementSchema.nullable(),
});
export type StatementGeneration = z.infer<typeof statementGenerationSchema>;

/** The download formats: the statement as PDF or CSV, and the two tax tools' CSV formats. */
export const STATEMENT_FILE_FORMATS = ['pdf', 'csv', 'koinly', 'cointracker'] as const;
export type StatementFileFormat = (typeof STATEMENT_FILE_FORMATS)[number];

export const statementIdParamsSchema = z.object({ id: uuidString() });
export const statementFileQuerySchema = z
  .object({
    format: z.enum(STATEMENT_FILE_FORMATS),
    /** The PDF's language (default: the request's `User-Lang`). */
    lang: z.enum(['en-US', 'zh-HK']).optional(),
  })
  .strict();

/** The statement calls (signed-in users). */
export const statementEndpoints = {
  startGeneration: defineEndpoint({
    method: 'POST',
    path: '/statements/generations',
    tag: 'statements',
    summary: 'Start generating an account statement for a range of UTC days (one at a time per user)',
    auth: 'user',
    body: statementRequestSchema,
    content: statementGenerationSchema,
    codes: ['STATEMENT_GENERATION_RUNNING'],
  }),
  getLatestGeneration: defineEndpoint({
    method: 'GET',
    path: '/statements/generations/latest',
    tag: 'statements',
    summary: "The user's latest statement generation (null when none), so the page resumes after a reload",
    auth: 'user',
    content: statementGenerationSchema.nullable(),
  }),
  getGeneration: defineEndpoint({
    method: 'GET',
    path: '/statements/generations/:id',
    tag: 'statements',
    summary: "A statement generation's progress, with the statement once done",
    auth: 'user',
    params: statementIdParamsSchema,
    content: statementGenerationSchema,
    codes: ['NOT_FOUND'],
  }),
  /** Answers the file itself (not an envelope); registered by hand on the server. */
  downloadFile: defineEndpoint({
    method: 'GET',
    path: '/statements/generations/:id/file',
    tag: 'statements',
    summary: 'Download a generated statement as PDF or CSV, or as Koinly / CoinTracker tax CSV',
    auth: 'user',
    params: statementIdParamsSchema,
    query: statementFileQuerySchema,
    content: z.string(),
    codes: ['NOT_FOUND', 'STATEMENT_NOT_READY', 'STATEMENT_GENERATION_FAILED'],
  }),
};

/** The address of a statement file, for a plain download link (cookies carry the session). */
export function statementFilePath(id: string, format: StatementFileFormat, lang?: 'en-US' | 'zh-HK'): string {
  const query = new URLSearchParams({ format, ...(lang ? { lang } : {}) });
  return `/api/statements/generations/${encodeURIComponent(id)}/file?${query.toString()}`;
}
