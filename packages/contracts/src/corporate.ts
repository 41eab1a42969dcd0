import { z } from 'zod';
import { cardCurrencySchema, cardNetworkSchema, cardSchema } from './cards.ts';
import { defineEndpoint } from './endpoint.ts';
import { emailSchema } from './identity.ts';
import { decimalAmountSchema, withAmountMinor } from './money.ts';
import { pageQuerySchema, pageSchema } from './pagination.ts';
import { sensitiveFactorsSchema } from './security.ts';

/**
 * Corporate PRO accounts: corporate and business customers apply through an account manager, who
 * answers the application in the back office with a status and a reply; approved corporate users
 * issue cards to named employees with per-card limits. See docs/corporate.md.
 *
 * A user sends one application (company, expected monthly card spend, number of cards, contact);
 * it waits SUBMITTED until compliance approves or rejects it with a reply. At most one application
 * per user is open (SUBMITTED), and none can be sent once one is APPROVED. The company name and
 * registration number are prefilled from the user's company investor profile when there is one.
 * Server: `apps/server/src/modules/corporate`; employee cards: the cards module's `cards.corporate.ts`.
 */

/** An application's states: SUBMITTED → APPROVED or REJECTED, decided once (282 after). */
export const PRO_APPLICATION_STATUSES = ['SUBMITTED', 'APPROVED', 'REJECTED'] as const;
export type ProApplicationStatus = (typeof PRO_APPLICATION_STATUSES)[number];

/** The most cards an application may ask for (an account manager talks about anything larger). */
export const PRO_CARD_COUNT_MAX = 10_000;

const requiredText = (max: number) =>
  z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required' })
    .max(max, { error: 'validation.tooLong' });

/**
 * `POST corporate/pro/apply` as the client sends it: the expected monthly spend is a decimal string
 * of `currency` (one of the card currencies), parsed at the edge into `expectedMonthlySpendMinor`.
 */
export const applyProBaseSchema = z.object({
  companyName: requiredText(200),
  registrationNumber: requiredText(50),
  expectedMonthlySpend: decimalAmountSchema,
  currency: cardCurrencySchema,
  cardCount: z
    .number({ error: 'validation.required' })
    .int({ error: 'validation.required' })
    .min(1, { error: 'validation.required' })
    .max(PRO_CARD_COUNT_MAX, { error: 'validation.tooLong' }),
  contactName: requiredText(100),
  contactEmail: emailSchema,
  contactPhone: z
    .string({ error: 'validation.required' })
    .trim()
    .min(5, { error: 'validation.required' })
    .max(30, { error: 'validation.tooLong' }),
});
/** The apply body; its output carries `expectedMonthlySpendMinor` (minor units of `currency`). */
export const applyProBodySchema = withAmountMinor(applyProBaseSchema, (body) => body.currency, 'expectedMonthlySpend');
export type ApplyProBody = z.input<typeof applyProBodySchema>;
export type ParsedApplyProBody = z.output<typeof applyProBodySchema>;

/** An application as its author sees it; money as a decimal string of `currency`, times ISO instants. */
export const proApplicationSchema = z.object({
  id: z.number().int(),
  status: z.enum(PRO_APPLICATION_STATUSES),
  companyName: z.string(),
  registrationNumber: z.string(),
  expectedMonthlySpend: z.string(),
  currency: cardCurrencySchema,
  cardCount: z.number().int(),
  contactName: z.string(),
  contactEmail: z.string(),
  contactPhone: z.string(),
  /** The account manager's answer; null while SUBMITTED. */
  reply: z.string().nullable(),
  createdAt: z.string(),
  decidedAt: z.string().nullable(),
});
export type ProApplication = z.infer<typeof proApplicationSchema>;

/**
 * `GET corporate/pro`: the user's newest application (null when none), whether the PRO account is
 * approved, and what the form is prefilled with (the company investor profile; nulls when none).
 */
export const proAccountSchema = z.object({
  isPro: z.boolean(),
  application: proApplicationSchema.nullable(),
  prefill: z.object({ companyName: z.string().nullable(), registrationNumber: z.string().nullable() }),
});
export type ProAccount = z.infer<typeof proAccountSchema>;

/** The customer's calls of the PRO account. */
export const corporateEndpoints = {
  getProAccount: defineEndpoint({
    method: 'GET',
    path: '/corporate/pro',
    tag: 'corporate',
    summary: 'The caller’s PRO account: approved or not, the newest application, the form’s prefill',
    auth: 'user',
    content: proAccountSchema,
  }),
  applyPro: defineEndpoint({
    method: 'POST',
    path: '/corporate/pro/apply',
    tag: 'corporate',
    summary: 'Apply for a PRO account (one open application per user); an account manager decides',
    auth: 'user',
    kyc: 'basic',
    body: applyProBodySchema,
    content: proApplicationSchema,
    codes: ['PRO_APPLICATION_OPEN', 'PRO_ACCOUNT_ACTIVE'],
  }),
};

// ---------------------------------------------------------------- employee cards (cards module)

/** Per-card limits the company sets on an employee card, decimal strings of the card's currency (all required). */
export const employeeCardLimitsSchema = z.object({
  perTransaction: decimalAmountSchema,
  daily: decimalAmountSchema,
  monthly: decimalAmountSchema,
});

/**
 * `POST card/employee` (CARD_APPLY security check, `Idempotency-Key`): a virtual card in the name of
 * one employee, with limits no higher than a card's standard ones (`validation.cardLimitMax`) and
 * per payment ≤ per day ≤ per month (`validation.cardLimitOrder`). The employee's name is printed
 * on the card, so it follows the cardholder-name rule (Latin letters, 2–26 characters).
 */
export const issueEmployeeCardBodySchema = sensitiveFactorsSchema.extend({
  employeeName: z
    .string({ error: 'validation.required' })
    .trim()
    .min(2, { error: 'validation.required' })
    .max(26, { error: 'validation.tooLong' })
    .regex(/^[A-Za-z][A-Za-z .'-]*$/, { error: 'validation.cardholderName' }),
  network: cardNetworkSchema,
  currency: cardCurrencySchema,
  limits: employeeCardLimitsSchema,
});
export type IssueEmployeeCardBody = z.input<typeof issueEmployeeCardBodySchema>;

/** The cards module's calls for PRO accounts (registered from `cards.routes.ts`). */
export const corporateCardEndpoints = {
  issueEmployeeCard: defineEndpoint({
    method: 'POST',
    path: '/card/employee',
    tag: 'cards',
    summary: 'Issue a virtual card to a named employee with per-card limits (approved PRO accounts only)',
    auth: 'user',
    kyc: 'basic',
    sensitiveAction: 'CARD_APPLY',
    isIdempotent: true,
    body: issueEmployeeCardBodySchema,
    content: cardSchema,
    codes: ['PRO_ACCOUNT_REQUIRED', 'CAPTCHA_FAILED', 'CONFLICT', 'INSUFFICIENT_BALANCE', 'ACCOUNT_FROZEN'],
  }),
};

// ---------------------------------------------------------------- back office

/** An application as the back office lists it: with its author and who decided it. */
export const opsProApplicationSchema = proApplicationSchema.extend({
  userId: z.string(),
  userEmail: z.string().nullable(),
  decidedBy: z.string().nullable(),
});
export type OpsProApplication = z.infer<typeof opsProApplicationSchema>;

/** `GET admin/pro-applications` (and `.csv`): by status, and a text matched against company, registration no. and contact e-mail. */
export const opsProApplicationQuerySchema = pageQuerySchema.extend({
  status: z.enum(PRO_APPLICATION_STATUSES).optional(),
  q: z.string().trim().max(200).optional(),
});
export type OpsProApplicationQuery = z.output<typeof opsProApplicationQuerySchema>;

/** `POST admin/pro-applications/:id/decide`: approve or reject, with the reply the user receives. */
export const decideProApplicationBodySchema = z.object({
  isApproved: z.boolean(),
  reply: z.string().trim().min(1, { error: 'validation.required' }).max(1000, { error: 'validation.tooLong' }),
});
export type DecideProApplicationBody = z.input<typeof decideProApplicationBodySchema>;

/** An application id: a positive `serial` (PostgreSQL integer; larger ones are refused, not a database error). */
export const opsProIdParamsSchema = z.object({ id: z.coerce.number().int().min(1).max(2_147_483_647) });

/**
 * The account managers' calls (the roles of docs/back-office.md): support and compliance list the applications;
 * compliance decides them (admin always may). Every decision is in the audit log.
 */
export const opsCorporateEndpoints = {
  listProApplications: defineEndpoint({
    method: 'GET',
    path: '/admin/pro-applications',
    tag: 'back-office',
    summary: 'PRO account applications, open ones first (oldest first), then decided ones newest first',
    auth: 'operator',
    roles: ['support', 'compliance'],
    query: opsProApplicationQuerySchema,
    content: pageSchema(opsProApplicationSchema),
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN'],
  }),
  decideProApplication: defineEndpoint({
    method: 'POST',
    path: '/admin/pro-applications/:id/decide',
    tag: 'back-office',
    summary: 'Approve or reject a PRO account application with a reply (messaged to the user)',
    auth: 'operator',
    roles: ['compliance'],
    params: opsProIdParamsSchema,
    body: decideProApplicationBodySchema,
    content: opsProApplicationSchema,
    codes: ['LOGIN_EXPIRED', 'FORBIDDEN', 'NOT_FOUND', 'PRO_APPLICATION_STATE_CHANGED'],
  }),
};

/** The CSV export of the list (same query, every match up to `PRO_APPLICATIONS_CSV_MAX_ROWS`). */
export const PRO_APPLICATIONS_CSV_PATH = 'admin/pro-applications.csv';
export const PRO_APPLICATIONS_CSV_MAX_ROWS = 50_000;
