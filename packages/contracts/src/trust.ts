import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';
import { amountMinorSchema, toDecimalString } from './money.ts';
import { pageQuerySchema, pageSchema } from './pagination.ts';
import { sensitiveFactorsSchema } from './security.ts';

/**
 * BTC trust contracts (page
 * `/product/trust`; a one-time entrustment fee of 2 %; docs/trust.md). A trust holds
 * BTC for its settlor (the signed-in user): each amount entrusted pays the 2 % fee once, rounded up
 * to the satoshi (owed by the user); withdrawing back to the wallet (revocable trusts only) is free.
 * Amounts on the wire are BTC decimal strings with 8 decimals.
 */

/** The only asset a trust holds. */
export const TRUST_ASSET = 'BTC' as const;

/** The one-time entrustment fee in basis points of each amount entrusted (2 %). */
export const TRUST_FEE_BPS = 200n;
const BPS_PER_UNIT = 10_000n;

/** Smallest amount one funding may entrust: 0.0001 BTC (10,000 satoshi), so the fee is never most of it. */
export const TRUST_FUND_MIN_MINOR = 10_000n;

/** Inactivity period bounds in months (6–36). */
export const TRUST_INACTIVITY_MONTHS_MIN = 6;
export const TRUST_INACTIVITY_MONTHS_MAX = 36;
/** Term bounds in months when the trust is not open-ended (1 month to 100 years). */
export const TRUST_TERM_MONTHS_MAX = 1200;
/** Beneficiaries per trust. */
export const TRUST_BENEFICIARIES_MAX = 10;
/** Trusts one settlor may hold that are not closed. */
export const TRUSTS_PER_USER_MAX = 20;
/** Days before the inactivity deadline on which the settlor is reminded (30, 14 and 3). */
export const TRUST_REMINDER_DAYS = [30, 14, 3] as const;

/**
 * The entrustment fee of `amountMinor` satoshi: 2 % rounded UP to the satoshi (the fee is owed by
 * the user, docs/architecture.md "Money"), and the net that reaches the trust. 12,345,678 sat (0.12345678 BTC)
 * → fee ⌈246,913.56⌉ = 246,914 sat, net 12,098,764 sat.
 */
export function trustEntrustment(amountMinor: bigint): { feeMinor: bigint; netMinor: bigint } {
  // Ceiling division of a non-negative numerator: (a + d − 1) / d.
  const feeMinor = (amountMinor * TRUST_FEE_BPS + BPS_PER_UNIT - 1n) / BPS_PER_UNIT;
  return { feeMinor, netMinor: amountMinor - feeMinor };
}

/** Trust states: active (funded and withdrawn by the settlor), claim (inactivity passed; an operator releases), closed. */
export const TRUST_STATES = ['active', 'claim', 'closed'] as const;
export type TrustState = (typeof TRUST_STATES)[number];

/** A share of a trust as typed on the wire: a percentage with at most 2 decimals ("33.34"). */
const SHARE_PCT_PATTERN = /^(100|[1-9]?\d)(\.\d{1,2})?$/;

/** A percentage text ("33.34") in basis points (3334). The pattern allows exactly 2 decimals at most, so no rounding. */
export function sharePctToBps(text: string): number {
  const [whole = '0', fraction = ''] = text.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

/** Basis points (3334) as the wire's percentage text ("33.34"). */
export function shareBpsToPct(shareBps: number): string {
  return toDecimalString(BigInt(shareBps), 'USD');
}

/** One beneficiary as the settlor enters it. */
export const beneficiaryInputSchema = z.object({
  name: z.string().trim().min(1, { error: 'validation.required' }).max(100, { error: 'validation.tooLong' }),
  email: z.email({ error: 'validation.email' }).max(254, { error: 'validation.tooLong' }),
  sharePct: z
    .string()
    .max(6, { abort: true })
    .regex(SHARE_PCT_PATTERN, { error: 'validation.trustShare' })
    .refine((text) => sharePctToBps(text) > 0 && sharePctToBps(text) <= 10_000, { error: 'validation.trustShare' }),
});
export type BeneficiaryInput = z.input<typeof beneficiaryInputSchema>;

/**
 * `POST trust/create` body. `termMonths` null = open-ended. Beneficiaries' shares must sum to
 * exactly 100 % (refused on `beneficiaries` with `validation.trustSharesSum` and the sum otherwise).
 */
export const createTrustBodySchema = z
  .object({
    name: z.string().trim().min(1, { error: 'validation.required' }).max(60, { error: 'validation.tooLong' }),
    termMonths: z
      .number({ error: 'validation.trustTerm' })
      .int({ error: 'validation.trustTerm' })
      .min(1, { error: 'validation.trustTerm' })
      .max(TRUST_TERM_MONTHS_MAX, { error: 'validation.trustTerm' })
      .nullable(),
    isRevocable: z.boolean(),
    inactivityMonths: z
      .number({ error: 'validation.trustInactivity' })
      .int({ error: 'validation.trustInactivity' })
      .min(TRUST_INACTIVITY_MONTHS_MIN, { error: 'validation.trustInactivity' })
      .max(TRUST_INACTIVITY_MONTHS_MAX, { error: 'validation.trustInactivity' }),
    beneficiaries: z
      .array(beneficiaryInputSchema)
      .min(1, { error: 'validation.trustBeneficiaries' })
      .max(TRUST_BENEFICIARIES_MAX, { error: 'validation.trustBeneficiaries' }),
  })
  .superRefine((body, context) => {
    // zod runs this refinement after non-fatal issues too (a name too long): sum only well-formed shares.
    const isEachShareRead =
      Array.isArray(body.beneficiaries) &&
      body.beneficiaries.length > 0 &&
      body.beneficiaries.every((item) => typeof item?.sharePct === 'string' && SHARE_PCT_PATTERN.test(item.sharePct));
    if (!isEachShareRead) return;
    const sumBps = body.beneficiaries.reduce((sum, item) => sum + sharePctToBps(item.sharePct), 0);
    if (sumBps !== 10_000)
      context.issues.push({
        code: 'custom',
        message: 'validation.trustSharesSum',
        params: { sum: shareBpsToPct(sumBps) },
        input: body.beneficiaries,
        path: ['beneficiaries'],
      });
  });
export type CreateTrustBody = z.input<typeof createTrustBodySchema>;
export type ParsedCreateTrustBody = z.output<typeof createTrustBodySchema>;

/** `POST trust/:id/fund` body: the BTC amount taken from the wallet (fee included), with the security-check factors. */
export const fundTrustBodySchema = sensitiveFactorsSchema.extend({ amount: amountMinorSchema(TRUST_ASSET) });
export type FundTrustBody = z.input<typeof fundTrustBodySchema>;
/** `POST trust/:id/withdraw` body: the BTC amount returned to the wallet (no fee), with the security-check factors. */
export const withdrawTrustBodySchema = sensitiveFactorsSchema.extend({ amount: amountMinorSchema(TRUST_ASSET) });
export type WithdrawTrustBody = z.input<typeof withdrawTrustBodySchema>;

export const trustIdParamSchema = z.object({ id: z.coerce.number().int().positive() });

export const beneficiarySchema = z.object({ name: z.string(), email: z.string(), sharePct: z.string() });
export type Beneficiary = z.infer<typeof beneficiarySchema>;

/** A trust as its settlor sees it. Amounts: BTC decimal strings (8 decimals). Times: ISO instants. */
export const trustSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  state: z.enum(TRUST_STATES),
  termMonths: z.number().int().nullable(),
  /** createdAt + termMonths; null when open-ended. */
  termEndsAt: z.string().nullable(),
  isRevocable: z.boolean(),
  inactivityMonths: z.number().int(),
  beneficiaries: z.array(beneficiarySchema),
  /** What the trust holds now (BTC). */
  holding: z.string(),
  /** Sum of the fees paid on entrusting (BTC). */
  feesPaid: z.string(),
  /** When the beneficiaries were notified and the trust moved to claim; null otherwise. */
  claimAt: z.string().nullable(),
  /** When an operator released it (closed); null otherwise. */
  releasedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Trust = z.infer<typeof trustSchema>;
export const trustListSchema = z.array(trustSchema);

/** Kinds of a trust's history: entrust (funded, with fee), withdraw (back to the wallet), release (operator payout). */
export const TRUST_MOVEMENT_KINDS = ['entrust', 'withdraw', 'release'] as const;
export type TrustMovementKind = (typeof TRUST_MOVEMENT_KINDS)[number];

/** One line of a trust's history: `amount` left the wallet (entrust) or the trust; `net` reached the other side. */
export const trustMovementSchema = z.object({
  id: z.number().int(),
  kind: z.enum(TRUST_MOVEMENT_KINDS),
  amount: z.string(),
  fee: z.string(),
  net: z.string(),
  createdAt: z.string(),
});
export type TrustMovement = z.infer<typeof trustMovementSchema>;
export const trustMovementPageSchema = pageSchema(trustMovementSchema);
export const trustMovementQuerySchema = pageQuerySchema;

/** A trust with its first page of history. */
export const trustDetailSchema = trustSchema.extend({ history: trustMovementPageSchema });
export type TrustDetail = z.infer<typeof trustDetailSchema>;

/** The settlor's trust calls (level 2: identity verification `investor`). */
export const trustEndpoints = {
  listTrusts: defineEndpoint({
    method: 'GET',
    path: '/trust/list',
    tag: 'trust',
    summary: 'The caller’s trusts with their holdings',
    auth: 'user',
    kyc: 'investor',
    content: trustListSchema,
  }),
  createTrust: defineEndpoint({
    method: 'POST',
    path: '/trust/create',
    tag: 'trust',
    summary: 'Create a BTC trust: name, term, revocability, inactivity period, beneficiaries (shares sum to 100 %)',
    auth: 'user',
    kyc: 'investor',
    body: createTrustBodySchema,
    content: trustSchema,
    codes: ['TRUST_LIMIT_REACHED'],
  }),
  getTrust: defineEndpoint({
    method: 'GET',
    path: '/trust/:id',
    tag: 'trust',
    summary: 'One trust with its holding and history',
    auth: 'user',
    kyc: 'investor',
    params: trustIdParamSchema,
    query: trustMovementQuerySchema,
    content: trustDetailSchema,
    codes: ['NOT_FOUND'],
  }),
  fundTrust: defineEndpoint({
    method: 'POST',
    path: '/trust/:id/fund',
    tag: 'trust',
    summary: 'Entrust BTC from the wallet: 2 % one-time fee (rounded up to the satoshi), the net to the trust',
    auth: 'user',
    kyc: 'investor',
    sensitiveAction: 'TRUST_FUND',
    isIdempotent: true,
    params: trustIdParamSchema,
    body: fundTrustBodySchema,
    content: trustMovementSchema,
    codes: [
      'NOT_FOUND',
      'CAPTCHA_FAILED',
      'CONFLICT',
      'INSUFFICIENT_BALANCE',
      'AMOUNT_BELOW_MIN',
      'ACCOUNT_FROZEN',
      'TRUST_NOT_ACTIVE',
    ],
  }),
  withdrawTrust: defineEndpoint({
    method: 'POST',
    path: '/trust/:id/withdraw',
    tag: 'trust',
    summary: 'Return BTC from a revocable trust to the wallet (no fee)',
    auth: 'user',
    kyc: 'investor',
    sensitiveAction: 'TRUST_WITHDRAW',
    isIdempotent: true,
    params: trustIdParamSchema,
    body: withdrawTrustBodySchema,
    content: trustMovementSchema,
    codes: [
      'NOT_FOUND',
      'CAPTCHA_FAILED',
      'CONFLICT',
      'INSUFFICIENT_BALANCE',
      'ACCOUNT_FROZEN',
      'TRUST_NOT_ACTIVE',
      'TRUST_IRREVOCABLE',
    ],
  }),
};

// ---------------------------------------------------------------- operators

/** A trust as operators see it: the settlor and the beneficiaries to verify. */
export const opsTrustSchema = trustSchema.extend({
  userId: z.string(),
  userEmail: z.string().nullable(),
  /** The settlor's last sign-in the inactivity switch counted from; null when unknown. */
  lastSignInAt: z.string().nullable(),
  releaseReference: z.string().nullable(),
  releasedBy: z.string().nullable(),
});
export type OpsTrust = z.infer<typeof opsTrustSchema>;
export const opsTrustQuerySchema = pageQuerySchema.extend({ state: z.enum(TRUST_STATES).default('claim') });
export const opsTrustPageSchema = pageSchema(opsTrustSchema);

/**
 * `POST admin/trusts/:id/release` body: the operator's reference of the off-platform payout (a
 * case or transfer reference) and a note of how the beneficiaries were verified.
 */
export const releaseTrustBodySchema = z.object({
  reference: z.string().trim().min(1, { error: 'validation.required' }).max(120, { error: 'validation.tooLong' }),
  verificationNote: z
    .string()
    .trim()
    .min(1, { error: 'validation.required' })
    .max(1000, { error: 'validation.tooLong' }),
});

/**
 * The back office's trust calls. Listing: compliance and finance. Release: finance only — it moves
 * the trust's BTC to the platform's payout account (TRUST_PAYOUTS) for an off-platform payout.
 */
export const opsTrustEndpoints = {
  listTrusts: defineEndpoint({
    method: 'GET',
    path: '/admin/trusts',
    tag: 'admin',
    summary: 'Trusts by state (default: claim), with settlor and beneficiaries',
    auth: 'operator',
    roles: ['compliance', 'finance'],
    query: opsTrustQuerySchema,
    content: opsTrustPageSchema,
  }),
  releaseTrust: defineEndpoint({
    method: 'POST',
    path: '/admin/trusts/:id/release',
    tag: 'admin',
    summary: 'Release a trust in claim after verifying the beneficiaries: its BTC moves to the payout account',
    auth: 'operator',
    roles: ['finance'],
    params: trustIdParamSchema,
    body: releaseTrustBodySchema,
    content: opsTrustSchema,
    codes: ['NOT_FOUND', 'TRUST_STATE_CHANGED'],
  }),
};
