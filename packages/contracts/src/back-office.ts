import { z } from 'zod';
import { INSTANT_LENGTH_MAX, SHORT_TEXT_LENGTH_MAX, uuidString } from './limits.ts';
import { defineEndpoint } from './endpoint.ts';
import { emailSchema } from './identity.ts';
import { assetCodeSchema, signedDecimalAmountSchema } from './money.ts';
import { ANY_OPERATOR, OPERATOR_ROLES } from './operators.ts';
import { pageQuerySchema, pageSchema } from './pagination.ts';

/**
 * The back office: the operators' application at `/admin` and its API at `/api/admin`.
 * Every call is `auth: 'operator'` with the roles that may make it (see `operators.ts`). People sign
 * in with email, password and a TOTP code (enrolment is forced at the first sign-in) and hold the
 * back-office session cookie (path `/api/admin`, `SameSite=Strict`, 30 min idle, 8 h absolute);
 * scripts (`npm run ops`) send an operator's bearer token instead. Every write is in the audit log.
 */

const codeSchema = z
  .string()
  .max(6, { abort: true })
  .regex(/^\d{6}$/, { error: 'validation.code6' });
const reasonSchema = z.string().trim().min(1, { error: 'validation.required' }).max(500);
const userIdParamsSchema = z.object({ userId: z.string().min(1).max(64) });
const numericIdParamsSchema = z.object({ id: z.coerce.number().int().min(1) });

// ---------------------------------------------------------------- access

/** An operator as the back office shows it. */
export const operatorSchema = z.object({
  id: z.number().int(),
  email: z.string(),
  role: z.enum(OPERATOR_ROLES),
  isActive: z.boolean(),
  hasTotp: z.boolean(),
  createdAt: z.string(),
  lastSignInAt: z.string().nullable(),
});
export type OperatorView = z.infer<typeof operatorSchema>;

/** `POST admin/session`: password, and the TOTP code once the operator has enrolled. */
export const operatorSignInBodySchema = z.strictObject({
  email: emailSchema,
  password: z.string().min(1, { error: 'validation.required' }).max(128),
  totpCode: codeSchema.optional(),
});

/**
 * The sign-in's answer: `signedIn` (the session is full), or `enrolTotp` at the first sign-in (the
 * session may only enrol: scan `otpauthUri` and send a code to `admin/session/totp`).
 */
export const operatorSessionSchema = z.object({
  state: z.enum(['signedIn', 'enrolTotp']),
  operator: operatorSchema,
  totpEnrolment: z.object({ secret: z.string(), otpauthUri: z.string() }).nullable(),
  idleTimeoutMinutes: z.number().int(),
});
export type OperatorSession = z.infer<typeof operatorSessionSchema>;

export const operatorTotpBodySchema = z.strictObject({ totpCode: codeSchema });

export const createOperatorBodySchema = z.strictObject({ email: emailSchema, role: z.enum(OPERATOR_ROLES) });
/** The new operator and its temporary password, shown once to the admin who created it. */
export const createdOperatorSchema = z.object({ operator: operatorSchema, temporaryPassword: z.string() });
export const updateOperatorBodySchema = z.strictObject({
  role: z.enum(OPERATOR_ROLES).optional(),
  isActive: z.boolean().optional(),
  /** Clear the authenticator: the operator enrols again at the next sign-in. */
  resetTotp: z.literal(true).optional(),
});

/** One line of the append-only audit log: who, when, what, before/after, reason, IP. */
export const auditEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  operatorId: z.number().int().nullable(),
  operatorEmail: z.string().nullable(),
  action: z.string(),
  targetType: z.string(),
  targetId: z.string().nullable(),
  before: z.unknown().nullable(),
  after: z.unknown().nullable(),
  reason: z.string().nullable(),
  ip: z.string().nullable(),
  /** The business code the action was answered with: 200 done, otherwise refused (102, 153 …). */
  outcomeCode: z.number().int(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
/** The CSV export of the audit log (`GET admin/audit.csv`, the list's query, every match; a download, not an envelope). */
export const AUDIT_CSV_PATH = 'admin/audit.csv';

/** `GET admin/audit` (and `admin/audit.csv`): filters, all optional; dates as `YYYY-MM-DD` (Hong Kong days). */
export const auditQuerySchema = pageQuerySchema.extend({
  operator: z.string().max(200).optional(),
  action: z.string().max(100).optional(),
  targetType: z.string().max(50).optional(),
  targetId: z.string().max(100).optional(),
  from: z.iso.date().max(10).optional(),
  to: z.iso.date().max(10).optional(),
});

export const backOfficeAccessEndpoints = {
  signIn: defineEndpoint({
    method: 'POST',
    path: '/admin/session',
    tag: 'back-office',
    summary: 'Operator sign-in: password, then TOTP (enrolment forced at the first sign-in)',
    auth: 'none',
    body: operatorSignInBodySchema,
    content: operatorSessionSchema,
    codes: ['LOGIN_FAILED', 'ACCOUNT_LOCKED', 'FORBIDDEN'],
  }),
  enrolTotp: defineEndpoint({
    method: 'POST',
    path: '/admin/session/totp',
    tag: 'back-office',
    summary: 'Confirm the authenticator at the first sign-in; the session becomes full',
    auth: 'none',
    body: operatorTotpBodySchema,
    content: operatorSessionSchema,
    codes: ['CAPTCHA_FAILED'],
  }),
  session: defineEndpoint({
    method: 'GET',
    path: '/admin/session',
    tag: 'back-office',
    summary: 'The signed-in operator',
    auth: 'operator',
    roles: ANY_OPERATOR,
    content: operatorSessionSchema,
  }),
  signOut: defineEndpoint({
    method: 'DELETE',
    path: '/admin/session',
    tag: 'back-office',
    summary: 'Sign out (the session row is revoked)',
    auth: 'none',
    content: z.null(),
  }),
  listOperators: defineEndpoint({
    method: 'GET',
    path: '/admin/operators',
    tag: 'back-office',
    summary: 'Operators',
    auth: 'operator',
    roles: [],
    content: z.array(operatorSchema),
  }),
  createOperator: defineEndpoint({
    method: 'POST',
    path: '/admin/operators',
    tag: 'back-office',
    summary: 'Create an operator; its temporary password is answered once',
    auth: 'operator',
    roles: [],
    body: createOperatorBodySchema,
    content: createdOperatorSchema,
    codes: ['CONFLICT'],
  }),
  updateOperator: defineEndpoint({
    method: 'PATCH',
    path: '/admin/operators/:id',
    tag: 'back-office',
    summary: 'Change an operator’s role, deactivate or reactivate it, or reset its authenticator',
    auth: 'operator',
    roles: [],
    params: numericIdParamsSchema,
    body: updateOperatorBodySchema,
    content: operatorSchema,
    codes: ['NOT_FOUND', 'CONFLICT'],
  }),
  listAudit: defineEndpoint({
    method: 'GET',
    path: '/admin/audit',
    tag: 'back-office',
    summary: 'The audit log, newest first, searchable (CSV: admin/audit.csv with the same query)',
    auth: 'operator',
    roles: ['compliance'],
    query: auditQuerySchema,
    content: pageSchema(auditEntrySchema),
  }),
};

// ---------------------------------------------------------------- dashboard

/** A review queue's size and its oldest item against its SLA. */
export const queueStatSchema = z.object({
  queue: z.enum(['kyc', 'withdrawals', 'largeWithdrawals', 'screeningAlerts', 'adjustments']),
  size: z.number().int(),
  oldestAt: z.string().nullable(),
  /** The SLA in hours (KYC: 1 working day = 24); null when the queue has none. */
  slaHours: z.number().int().nullable(),
  isOverdue: z.boolean(),
});
/** Today's totals per asset (Hong Kong day), as decimal strings. */
export const flowTotalSchema = z.object({
  kind: z.enum(['deposits', 'withdrawals', 'swaps']),
  asset: z.string(),
  count: z.number().int(),
  amount: z.string(),
});
/** Liabilities (the sum of user balances) per asset against the platform's recorded holdings. */
export const liabilitySchema = z.object({ asset: z.string(), liabilities: z.string(), holdings: z.string() });
export const dashboardSchema = z.object({
  queues: z.array(queueStatSchema),
  today: z.array(flowTotalSchema),
  /** The ledger's three invariants (ARCHITECTURE §4): postings sum to zero, balances match postings, no negative user balance. */
  ledgerCheck: z.object({ isOk: z.boolean(), problems: z.array(z.string()), checkedAt: z.string() }),
  liabilities: z.array(liabilitySchema),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

// ---------------------------------------------------------------- users

export const userSearchQuerySchema = pageQuerySchema.extend({ q: z.string().trim().max(200).optional() });
export const userRowSchema = z.object({
  userId: z.string(),
  email: z.string(),
  name: z.string().nullable(),
  phone: z.string().nullable(),
  kycLevel: z.number().int(),
  isFrozen: z.boolean(),
  createdAt: z.string(),
});
export const userNoteSchema = z.object({
  id: z.number().int(),
  at: z.string(),
  operatorEmail: z.string(),
  text: z.string(),
});
/**
 * The names the user page's lists carry as text (`userDetailSchema`): each verification step's
 * status (kyc.service `verificationStepsOf`), and each history line's module, kind and status
 * (admin.users: wallet activity and swaps). Listed so that the back office labels every one of
 * them in both languages (apps/web admin `labels.test.ts`).
 */
export const VERIFICATION_STATUS_NAMES = ['none', 'verified', 'underReview', 'failed', 'expired'] as const;
export const USER_HISTORY_MODULES = ['wallet', 'exchange'] as const;
export const USER_HISTORY_KINDS = [
  'deposit',
  'internalDeposit',
  'withdrawal',
  'internalWithdrawal',
  'swap',
  'flashExchange',
] as const;
export const USER_HISTORY_STATUSES = [
  'pending',
  'credited',
  'frozen',
  'waiting',
  'processing',
  'success',
  'failure',
  'cancel',
  'executed',
] as const;

/** A user's page: profile, verification, balances, sessions, history across modules, messages, notes. */
export const userDetailSchema = userRowSchema.extend({
  frozenReason: z.string().nullable(),
  frozenAt: z.string().nullable(),
  hasTotp: z.boolean(),
  /** Withdrawals are held until then after a security change (2FA reset). */
  withdrawHoldUntil: z.string().nullable(),
  verification: z.array(z.object({ step: z.string(), status: z.string(), decidedAt: z.string().nullable() })),
  balances: z.array(z.object({ asset: z.string(), available: z.string(), frozen: z.string() })),
  sessions: z.array(
    z.object({ id: z.string(), createdAt: z.string(), lastSeenAt: z.string().nullable(), ip: z.string().nullable() }),
  ),
  history: z.array(
    z.object({
      at: z.string(),
      module: z.string(),
      kind: z.string(),
      asset: z.string(),
      amount: z.string(),
      status: z.string(),
    }),
  ),
  messages: z.array(z.object({ at: z.string(), title: z.string() })),
  notes: z.array(userNoteSchema),
});
export type UserDetail = z.infer<typeof userDetailSchema>;
export const userActionBodySchema = z.strictObject({ reason: reasonSchema });
export const userNoteBodySchema = z.strictObject({
  text: z.string().trim().min(1, { error: 'validation.required' }).max(2000),
});

export const backOfficeUserEndpoints = {
  dashboard: defineEndpoint({
    method: 'GET',
    path: '/admin/dashboard',
    tag: 'back-office',
    summary: 'Queues against their SLA, today’s flows, the ledger check, liabilities against holdings',
    auth: 'operator',
    roles: ANY_OPERATOR,
    content: dashboardSchema,
  }),
  searchUsers: defineEndpoint({
    method: 'GET',
    path: '/admin/users',
    tag: 'back-office',
    summary: 'Search users by email, uid, name or phone',
    auth: 'operator',
    roles: ANY_OPERATOR,
    query: userSearchQuerySchema,
    content: pageSchema(userRowSchema),
  }),
  showUser: defineEndpoint({
    method: 'GET',
    path: '/admin/users/:userId',
    tag: 'back-office',
    summary: 'A user’s page',
    auth: 'operator',
    roles: ANY_OPERATOR,
    params: userIdParamsSchema,
    content: userDetailSchema,
    codes: ['NOT_FOUND'],
  }),
  freezeUser: defineEndpoint({
    method: 'POST',
    path: '/admin/users/:userId/freeze',
    tag: 'back-office',
    summary: 'Freeze an account: it can sign in and see, not move money',
    auth: 'operator',
    roles: ['compliance'],
    params: userIdParamsSchema,
    body: userActionBodySchema,
    content: userDetailSchema,
    codes: ['NOT_FOUND', 'CONFLICT'],
  }),
  unfreezeUser: defineEndpoint({
    method: 'POST',
    path: '/admin/users/:userId/unfreeze',
    tag: 'back-office',
    summary: 'Unfreeze an account',
    auth: 'operator',
    roles: ['compliance'],
    params: userIdParamsSchema,
    body: userActionBodySchema,
    content: userDetailSchema,
    codes: ['NOT_FOUND', 'CONFLICT'],
  }),
  resetUserTotp: defineEndpoint({
    method: 'POST',
    path: '/admin/users/:userId/reset-2fa',
    tag: 'back-office',
    summary: 'Remove the user’s authenticator; withdrawals are held 24 h',
    auth: 'operator',
    roles: ['support'],
    params: userIdParamsSchema,
    body: userActionBodySchema,
    content: userDetailSchema,
    codes: ['NOT_FOUND', 'CONFLICT'],
  }),
  addUserNote: defineEndpoint({
    method: 'POST',
    path: '/admin/users/:userId/notes',
    tag: 'back-office',
    summary: 'Add an operator note to a user',
    auth: 'operator',
    roles: ANY_OPERATOR,
    params: userIdParamsSchema,
    body: userNoteBodySchema,
    content: userNoteSchema,
    codes: ['NOT_FOUND'],
  }),
};

// ---------------------------------------------------------------- manual adjustments (four eyes)

/** One side of an adjustment: a user's wallet in an asset, or a platform account by its code. */
export const adjustmentPostingSchema = z.strictObject({
  account: z.discriminatedUnion('kind', [
    z.strictObject({ kind: z.literal('user'), userId: z.string().min(1).max(64) }),
    z.strictObject({ kind: z.literal('platform'), code: z.enum(['adjustments', 'suspense', 'fees']) }),
  ]),
  asset: assetCodeSchema,
  /** Signed decimal string: positive credits the account, negative debits it. */
  amount: signedDecimalAmountSchema,
});
export const proposeAdjustmentBodySchema = z.strictObject({
  reason: reasonSchema,
  /** At least two postings summing to zero per asset (`postings` is named when they do not). */
  postings: z.array(adjustmentPostingSchema).min(2).max(10),
});
export const ADJUSTMENT_STATUSES = ['proposed', 'posted', 'rejected'] as const;
export const adjustmentSchema = z.object({
  id: z.number().int(),
  status: z.enum(ADJUSTMENT_STATUSES),
  reason: z.string(),
  postings: z.array(
    z.object({
      account: z.object({
        kind: z.enum(['user', 'platform']),
        userId: z.string().optional(),
        code: z.string().optional(),
      }),
      asset: z.string(),
      amount: z.string(),
    }),
  ),
  proposedBy: z.string(),
  proposedAt: z.string(),
  decidedBy: z.string().nullable(),
  decidedAt: z.string().nullable(),
  decisionNote: z.string().nullable(),
  /** The ledger entry once posted. */
  entryId: z.string().nullable(),
});
export type Adjustment = z.infer<typeof adjustmentSchema>;
export const adjustmentQuerySchema = pageQuerySchema.extend({ status: z.enum(ADJUSTMENT_STATUSES).optional() });
export const rejectAdjustmentBodySchema = z.strictObject({ reason: reasonSchema });

export const backOfficeAdjustmentEndpoints = {
  listAdjustments: defineEndpoint({
    method: 'GET',
    path: '/admin/adjustments',
    tag: 'back-office',
    summary: 'Manual adjustments, newest first',
    auth: 'operator',
    roles: ['finance', 'compliance'],
    query: adjustmentQuerySchema,
    content: pageSchema(adjustmentSchema),
  }),
  proposeAdjustment: defineEndpoint({
    method: 'POST',
    path: '/admin/adjustments',
    tag: 'back-office',
    summary: 'Propose a balanced journal entry with a reason (a different finance operator approves it)',
    auth: 'operator',
    roles: ['finance'],
    body: proposeAdjustmentBodySchema,
    content: adjustmentSchema,
    codes: ['NOT_FOUND'],
  }),
  approveAdjustment: defineEndpoint({
    method: 'POST',
    path: '/admin/adjustments/:id/approve',
    tag: 'back-office',
    summary: 'Approve and post (four eyes: not by its proposer); posted once however often it is approved',
    auth: 'operator',
    roles: ['finance'],
    params: numericIdParamsSchema,
    content: adjustmentSchema,
    codes: ['NOT_FOUND', 'FOUR_EYES_REQUIRED', 'ADJUSTMENT_STATE_CHANGED', 'INSUFFICIENT_BALANCE'],
  }),
  rejectAdjustment: defineEndpoint({
    method: 'POST',
    path: '/admin/adjustments/:id/reject',
    tag: 'back-office',
    summary: 'Reject a proposed adjustment with a reason',
    auth: 'operator',
    roles: ['finance'],
    params: numericIdParamsSchema,
    body: rejectAdjustmentBodySchema,
    content: adjustmentSchema,
    codes: ['NOT_FOUND', 'ADJUSTMENT_STATE_CHANGED'],
  }),
};

// ---------------------------------------------------------------- deposits

/** A deposit's state: waiting for confirmations, credited to the user, or frozen (source on a sanctions list). */
export const OPS_DEPOSIT_STATUSES = ['pending', 'credited', 'frozen'] as const;
export type OpsDepositStatus = (typeof OPS_DEPOSIT_STATUSES)[number];

/** `GET admin/deposits?status=&coin=`: a page, newest first; both filters optional. */
export const opsDepositQuerySchema = pageQuerySchema.extend({
  status: z.enum(OPS_DEPOSIT_STATUSES).optional(),
  coin: assetCodeSchema.optional(),
});

/**
 * A deposit as operators see it: its owner, what arrived where, from where,
 * its confirmations and state. `amount` is a decimal string in the coin's units ("25.5"), never a
 * number; times are ISO 8601 instants.
 */
export const opsDepositSchema = z.object({
  id: z.string(),
  userId: z.string(),
  /** The owner's email; null when the account no longer exists. */
  userEmail: z.string().nullable(),
  coinCode: z.string(),
  network: z.string(),
  /** The user's deposit address the coins reached. */
  address: z.string(),
  amount: z.string(),
  /** The chain transaction; null for a transfer between Meridian users (INTERNAL). */
  txHash: z.string().nullable(),
  /** Where the coins came from, when custody reported it. */
  fromAddress: z.string().nullable(),
  confirmations: z.number().int(),
  type: z.enum(['INTERNAL', 'OUTER']),
  status: z.enum(OPS_DEPOSIT_STATUSES),
  createdAt: z.string(),
  creditedAt: z.string().nullable(),
});
export type OpsDeposit = z.infer<typeof opsDepositSchema>;

export const backOfficeDepositEndpoints = {
  listDeposits: defineEndpoint({
    method: 'GET',
    path: '/admin/deposits',
    tag: 'back-office',
    summary: 'Deposits (pending, credited, frozen), newest first, by status and coin',
    auth: 'operator',
    roles: ['finance', 'compliance', 'support'],
    query: opsDepositQuerySchema,
    content: pageSchema(opsDepositSchema),
  }),
};

// ---------------------------------------------------------------- broadcasts (content)

/** Most characters of a broadcast's title (each language). */
export const BROADCAST_TITLE_LENGTH_MAX = 120;
/** Most characters of a broadcast's body (each language). */
export const BROADCAST_BODY_LENGTH_MAX = 2000;
/** Who a broadcast goes to: every active user, or the active users with KYC level ≥ 1 (basic verification). */
export const BROADCAST_SEGMENTS = ['all', 'verified'] as const;
export type BroadcastSegment = (typeof BROADCAST_SEGMENTS)[number];

const broadcastText = (lengthMax: number) =>
  z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, { error: 'validation.required' })
    .max(lengthMax, { error: 'validation.tooLong' });

/**
 * `POST admin/broadcasts`: a message in both languages (each user reads their own) and its segment.
 * Every text is required; titles at most 120 characters, bodies at most 2,000; a bad field is named.
 */
export const sendBroadcastBodySchema = z.strictObject({
  titleEn: broadcastText(BROADCAST_TITLE_LENGTH_MAX),
  titleZh: broadcastText(BROADCAST_TITLE_LENGTH_MAX),
  bodyEn: broadcastText(BROADCAST_BODY_LENGTH_MAX),
  bodyZh: broadcastText(BROADCAST_BODY_LENGTH_MAX),
  segment: z.enum(BROADCAST_SEGMENTS, { error: 'validation.required' }),
});
export type SendBroadcastBody = z.infer<typeof sendBroadcastBodySchema>;

/** A sent broadcast: its texts, segment, how many users it reached, who sent it and when. */
export const broadcastSchema = z.object({
  id: z.number().int(),
  titleEn: z.string(),
  titleZh: z.string(),
  bodyEn: z.string(),
  bodyZh: z.string(),
  segment: z.enum(BROADCAST_SEGMENTS),
  recipientCount: z.number().int(),
  operatorEmail: z.string(),
  createdAt: z.string(),
});
export type Broadcast = z.infer<typeof broadcastSchema>;

export const backOfficeBroadcastEndpoints = {
  listBroadcasts: defineEndpoint({
    method: 'GET',
    path: '/admin/broadcasts',
    tag: 'back-office',
    summary: 'Broadcast messages sent, newest first',
    auth: 'operator',
    roles: ['compliance', 'support'],
    query: pageQuerySchema,
    content: pageSchema(broadcastSchema),
  }),
  sendBroadcast: defineEndpoint({
    method: 'POST',
    path: '/admin/broadcasts',
    tag: 'back-office',
    summary: 'Send a message to every active user of a segment, each in their language',
    auth: 'operator',
    roles: ['compliance'],
    body: sendBroadcastBodySchema,
    content: broadcastSchema,
  }),
};

// ---------------------------------------------------------------- banners (content)

/** Most characters of a banner's title (each language). */
export const BANNER_TITLE_LENGTH_MAX = 80;
/** Most characters of a banner's link. */
export const BANNER_LINK_LENGTH_MAX = 500;
/** Most banners one reorder call may list. */
export const BANNER_ORDER_MAX = 200;

/**
 * The banner images the web app ships (`apps/web/public/banners`), one per product and language
 * (`.zh-HK.svg`: texts in Traditional Chinese). An operator chooses a banner's image per language
 * from these paths; uploads are not built yet.
 */
export const BANNER_IMAGES = [
  '/banners/earn.svg',
  '/banners/earn.zh-HK.svg',
  '/banners/trust.svg',
  '/banners/trust.zh-HK.svg',
  '/banners/loan.svg',
  '/banners/loan.zh-HK.svg',
  '/banners/card.svg',
  '/banners/card.zh-HK.svg',
  '/banners/exchange.svg',
  '/banners/exchange.zh-HK.svg',
] as const;
export type BannerImage = (typeof BANNER_IMAGES)[number];

/**
 * A banner's state at a time: `off` (switched off), `scheduled` (on, its start is still ahead),
 * `ended` (on, its end has passed), `live` (on and inside its window: customers see it).
 */
export const BANNER_STATES = ['scheduled', 'live', 'ended', 'off'] as const;
export type BannerState = (typeof BANNER_STATES)[number];

/**
 * Whether `link` may be a banner's link: a site path (`/…`, not `//host`, no spaces or backslashes)
 * or an absolute `https:` URL with a host. Anything else (http, javascript:, mailto:) is refused.
 */
export function isBannerLink(link: string): boolean {
  if (/[\s\\]/.test(link)) return false;
  if (link.startsWith('/')) return !link.startsWith('//');
  if (!link.startsWith('https://')) return false;
  try {
    const url = new URL(link);
    return url.protocol === 'https:' && url.hostname.length > 0;
  } catch {
    return false;
  }
}

/**
 * The state of a banner at `now` (see `BANNER_STATES`): its window is `startsAt` inclusive to
 * `endsAt` exclusive; null on either side leaves it open.
 */
export function bannerStateAt(
  banner: { isActive: boolean; startsAt: string | null; endsAt: string | null },
  now: Date,
): BannerState {
  if (!banner.isActive) return 'off';
  if (banner.startsAt !== null && Date.parse(banner.startsAt) > now.getTime()) return 'scheduled';
  if (banner.endsAt !== null && Date.parse(banner.endsAt) <= now.getTime()) return 'ended';
  return 'live';
}

const bannerTitle = z
  .string({ error: 'validation.required' })
  .trim()
  .min(1, { error: 'validation.required' })
  .max(BANNER_TITLE_LENGTH_MAX, { error: 'validation.tooLong' });
/** Where an uploaded banner image is served (`GET /api/market/banner/image/:id`, public, cached). */
export const BANNER_IMAGE_URL_PREFIX = '/api/market/banner/image/';
const UPLOADED_BANNER_IMAGE =
  /^\/api\/market\/banner\/image\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Whether `path` is the served path of an uploaded banner image (not whether that image exists). */
export function isUploadedBannerImage(path: string): boolean {
  return UPLOADED_BANNER_IMAGE.test(path);
}

/** The id of an uploaded banner image from its served path, or null for a shipped image. */
export function uploadedBannerImageId(path: string): string | null {
  return isUploadedBannerImage(path) ? path.slice(BANNER_IMAGE_URL_PREFIX.length) : null;
}

/** A banner image: one the web app ships (`BANNER_IMAGES`) or an uploaded one's served path. */
const bannerImage = z
  .string({ error: 'validation.bannerImage' })
  .max(SHORT_TEXT_LENGTH_MAX)
  .refine((path) => (BANNER_IMAGES as readonly string[]).includes(path) || isUploadedBannerImage(path), {
    error: 'validation.bannerImage',
  });
const bannerTime = z.iso.datetime({ offset: true, error: 'validation.required' }).max(INSTANT_LENGTH_MAX).nullable();

/**
 * `POST admin/banners` and `PUT admin/banners/:id`: a banner in both languages. Titles required,
 * at most 80 characters each; `webLink` a site path (`/…`) or an https URL (`isBannerLink`);
 * `imagePath` one of `BANNER_IMAGES` or an uploaded image's path (`BANNER_IMAGE_URL_PREFIX<id>`,
 * which the server checks exists), `imagePathZhHk` the same or null (the same image for zh-HK); `startsAt` / `endsAt` ISO 8601 times with an offset, null = open, the end after the
 * start; `isBlank` opens the link in a new tab. A bad field is named (120).
 */
export const bannerBodySchema = z
  .strictObject({
    titleEn: bannerTitle,
    titleZh: bannerTitle,
    webLink: z
      .string({ error: 'validation.required' })
      .trim()
      .min(1, { error: 'validation.required' })
      .max(BANNER_LINK_LENGTH_MAX, { error: 'validation.tooLong' })
      .refine(isBannerLink, { error: 'validation.bannerLink' }),
    isBlank: z.boolean(),
    imagePath: bannerImage,
    imagePathZhHk: bannerImage.nullable(),
    startsAt: bannerTime,
    endsAt: bannerTime,
    isActive: z.boolean(),
  })
  .refine(
    (body) => body.startsAt === null || body.endsAt === null || Date.parse(body.endsAt) > Date.parse(body.startsAt),
    {
      error: 'validation.scheduleOrder',
      path: ['endsAt'],
    },
  );
export type BannerBody = z.infer<typeof bannerBodySchema>;

/** `POST admin/banners/order`: every banner's id once, in the new display order (first = shown first). */
export const bannerOrderBodySchema = z.strictObject({
  ids: z.array(z.string().min(1).max(64)).min(1).max(BANNER_ORDER_MAX),
});

/** A banner as the back office shows it: its fields, display position, schedule and state now. */
export const opsBannerSchema = z.object({
  id: z.string(),
  titleEn: z.string(),
  titleZh: z.string(),
  webLink: z.string(),
  isBlank: z.boolean(),
  /** A path the web app serves (e.g. `/banners/earn.svg`). */
  imagePath: z.string(),
  /** The zh-HK image; null: the same image for every language. */
  imagePathZhHk: z.string().nullable(),
  sortOrder: z.number().int(),
  isActive: z.boolean(),
  startsAt: z.string().nullable(),
  endsAt: z.string().nullable(),
  state: z.enum(BANNER_STATES),
  createdAt: z.string(),
});
export type OpsBanner = z.infer<typeof opsBannerSchema>;

const bannerIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

/** The multipart part that carries a banner image, and the field its refusals name. */
export const BANNER_IMAGE_FIELD = 'image';
/** Largest banner image, bytes (the server's `BANNER_IMAGE_UPLOAD_PROFILE` limit). */
export const BANNER_IMAGE_BYTES_MAX = 2 * 1024 * 1024;
/** Content types of a banner image (checked by magic bytes on the server). */
export const BANNER_IMAGE_MIME_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

/** A stored banner image: `path` is what a banner's `imagePath` / `imagePathZhHk` takes. */
export const bannerImageUploadSchema = z.object({
  id: z.string(),
  path: z.string(),
  fileName: z.string(),
  mimeType: z.enum(BANNER_IMAGE_MIME_TYPES),
  sizeBytes: z.number().int(),
});
export type BannerImageUpload = z.infer<typeof bannerImageUploadSchema>;

/** `GET market/banner/image/:id` parameters. */
export const bannerImageParamsSchema = z.object({ id: uuidString({ error: 'validation.required' }) });

export const backOfficeBannerEndpoints = {
  listBanners: defineEndpoint({
    method: 'GET',
    path: '/admin/banners',
    tag: 'back-office',
    summary: 'Every home-page banner in display order, with its state now',
    auth: 'operator',
    roles: ['compliance', 'support'],
    content: z.array(opsBannerSchema),
  }),
  createBanner: defineEndpoint({
    method: 'POST',
    path: '/admin/banners',
    tag: 'back-office',
    summary: 'Add a home-page banner (shown last)',
    auth: 'operator',
    roles: ['compliance'],
    body: bannerBodySchema,
    content: opsBannerSchema,
  }),
  updateBanner: defineEndpoint({
    method: 'PUT',
    path: '/admin/banners/:id',
    tag: 'back-office',
    summary: 'Edit a home-page banner',
    auth: 'operator',
    roles: ['compliance'],
    params: bannerIdParamsSchema,
    body: bannerBodySchema,
    content: opsBannerSchema,
  }),
  uploadBannerImage: defineEndpoint({
    method: 'POST',
    path: '/admin/banners/images',
    tag: 'back-office',
    summary:
      'Upload a banner image: multipart/form-data with one file in the part `image`; PNG, JPEG or WebP by content, at most 2 MB, a name of at most 50 characters (refusals name the field `image`)',
    auth: 'operator',
    roles: ['compliance'],
    content: bannerImageUploadSchema,
  }),
  reorderBanners: defineEndpoint({
    method: 'POST',
    path: '/admin/banners/order',
    tag: 'back-office',
    summary: 'Set the display order of every banner',
    auth: 'operator',
    roles: ['compliance'],
    body: bannerOrderBodySchema,
    content: z.array(opsBannerSchema),
  }),
};
