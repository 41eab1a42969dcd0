import { AML_STATUS_AS_KYC_STATUS, type AmlStatus, KYC_STATUS } from '@meridian/contracts/kyc';
import { and, desc, eq, inArray, isNull, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { kycAmlAnswers, kycBasic, kycDecisions, type kycInvestor, kycQualified, kycTaxForms } from './kyc.tables.ts';
import type { KycSelfStatus } from '../identity/identity.types.ts';
import { type KycContext, basicRow, type BasicRow, investorRow } from './kyc.internal.ts';

/**
 * The review states `user/self` shows (`status`): `user` and `investor` from the basic
 * KYC and investor profile rows (`KYC_STATUS`: 0 none, 1 Verified, 2 Under Review, 3 Failed, with
 * the reviewer's reason as `message`), `aml` the current answers' status mapped the same way
 * (`AML_STATUS_AS_KYC_STATUS`), `qualify` the qualified-investor application's (4 Expired), and
 * the verified name and residence. A user with no row of a step but a level that includes it (a
 * level given directly, as only test fixtures do; the product and the demo seed reach a level
 * through the steps, docs/decisions/0011-verification-level.md) shows that step as Verified.
 */
export async function selfStatus(ctx: KycContext, userId: string, level: number): Promise<KycSelfStatus> {
  const [{ basic, investor, amlStatus }, qualified] = await Promise.all([
    levelTwoRows(ctx, userId),
    ctx.db.select({ status: kycQualified.status }).from(kycQualified).where(eq(kycQualified.userId, userId)),
  ]);
  const stepStatus = (row: { status: number; message: string } | undefined, levelOfStep: number) =>
    row && row.status !== KYC_STATUS.NONE
      ? { status: row.status, message: row.message }
      : { status: level >= levelOfStep ? KYC_STATUS.VERIFIED : KYC_STATUS.NONE, message: '' };
  const verified = basic?.status === KYC_STATUS.VERIFIED ? basic.submitted : null;
  return {
    user: stepStatus(basic, 1),
    investor: stepStatus(investor, 2),
    aml: amlStatus ? AML_STATUS_AS_KYC_STATUS[amlStatus] : level >= 2 ? KYC_STATUS.VERIFIED : KYC_STATUS.NONE,
    qualify: qualified[0]?.status ?? (level >= 3 ? KYC_STATUS.VERIFIED : KYC_STATUS.NONE),
    basic: verified
      ? {
          firstName: String(verified.firstName ?? ''),
          lastName: String(verified.lastName ?? ''),
          country: String(verified.residence ?? ''),
        }
      : null,
  };
}

/**
 * Level 2 once basic KYC is Verified, the investor profile Verified, the
 * current AML answers accepted and a tax form on file; the level is raised, never lowered here.
 */
export async function refreshLevel(ctx: KycContext, userId: string): Promise<void> {
  const [{ basic, investor, amlStatus }, tax] = await Promise.all([
    levelTwoRows(ctx, userId),
    ctx.db
      .select({ id: kycTaxForms.id })
      .from(kycTaxForms)
      .where(and(eq(kycTaxForms.userId, userId), isNull(kycTaxForms.supersededAt)))
      .limit(1),
  ]);
  const isComplete =
    basic?.status === KYC_STATUS.VERIFIED &&
    investor?.status === KYC_STATUS.VERIFIED &&
    amlStatus === 'accepted' &&
    tax.length > 0;
  if (isComplete && (await ctx.deps.identity.kycLevelOf(userId)) < 2) await ctx.deps.identity.setKycLevel(userId, 2);
}

/** The basic KYC and investor profile rows of `userId`, and the status of the current AML answers. */
export async function levelTwoRows(
  ctx: KycContext,
  userId: string,
): Promise<{
  basic: BasicRow | undefined;
  investor: typeof kycInvestor.$inferSelect | undefined;
  amlStatus: AmlStatus | undefined;
}> {
  const [basic, investor, aml] = await Promise.all([
    basicRow(ctx, userId),
    investorRow(ctx, userId),
    ctx.db
      .select({ status: kycAmlAnswers.status })
      .from(kycAmlAnswers)
      .where(eq(kycAmlAnswers.userId, userId))
      .orderBy(desc(kycAmlAnswers.id))
      .limit(1),
  ]);
  return { basic, investor, amlStatus: aml[0]?.status as AmlStatus | undefined };
}

/** The verification level and what other modules read of KYC: `user/self` states, level 2 once complete, verified names, the back office's steps. Part of the KYC service (`kyc.service.ts`). */
export function createLevels(ctx: KycContext) {
  return {
    selfStatus: (userId: string, level: number) => selfStatus(ctx, userId, level),
    refreshLevel: (userId: string) => refreshLevel(ctx, userId),
    /**
     * The user's verified name: the first and last name (English) of the approved basic-KYC
     * submission; null while basic KYC is not Verified (a draft or a submission under review is not
     * a verified name). Read on `db` when given.
     */
    async verifiedNameOf(userId: string, db: DbOrTx = ctx.db): Promise<{ firstName: string; lastName: string } | null> {
      const [row] = await db
        .select({ status: kycBasic.status, submitted: kycBasic.submitted })
        .from(kycBasic)
        .where(eq(kycBasic.userId, userId))
        .limit(1);
      if (row?.status !== KYC_STATUS.VERIFIED || !row.submitted) return null;
      return { firstName: String(row.submitted.firstName ?? ''), lastName: String(row.submitted.lastName ?? '') };
    },
    /**
     * The names users gave in basic KYC (the submitted copy, else the draft), `firstName lastName`;
     * users without one are absent from the map.
     */
    async namesOf(userIds: readonly string[]): Promise<Map<string, string>> {
      if (userIds.length === 0) return new Map();
      const rows = await ctx.db
        .select({ userId: kycBasic.userId, submitted: kycBasic.submitted, draft: kycBasic.draft })
        .from(kycBasic)
        .where(inArray(kycBasic.userId, [...userIds]));
      const names = new Map<string, string>();
      for (const row of rows) {
        const source = (row.submitted ?? row.draft) as Record<string, unknown>;
        const name = [source.firstName, source.lastName]
          .filter((part) => typeof part === 'string' && part !== '')
          .join(' ');
        if (name !== '') names.set(row.userId, name);
      }
      return names;
    },
    /**
     * Users whose basic-KYC name (English or Chinese, submitted or draft) contains `text`
     * (case-insensitive), at most `limit`: the back office's search by name.
     */
    async userIdsMatchingName(text: string, limit: number): Promise<string[]> {
      const pattern = `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
      const name = (source: SQL) =>
        sql`concat_ws(' ', ${source}->>'firstName', ${source}->>'lastName', ${source}->>'nameChinese')`;
      const rows = await ctx.db
        .select({ userId: kycBasic.userId })
        .from(kycBasic)
        .where(
          sql`${name(sql`${kycBasic.submitted}`)} ILIKE ${pattern} OR ${name(sql`${kycBasic.draft}`)} ILIKE ${pattern}`,
        )
        .limit(limit);
      return rows.map((row) => row.userId);
    },
    /**
     * The user's verification steps for the back office's user page: basic, investor, AML and
     * qualified investor, each with its status name (`none`, `verified`, `underReview`, `failed`,
     * `expired`, as `selfStatus` derives them from the rows and `level`) and the time of the latest
     * reviewer decision on it (null when none, e.g. AML answers accepted by the rules).
     */
    async verificationStepsOf(
      userId: string,
      level: number,
    ): Promise<{ step: string; status: string; decidedAt: Date | null }[]> {
      const status = await selfStatus(ctx, userId, level);
      const decisions = await ctx.db
        .select({ subject: kycDecisions.subject, at: sql<Date | string>`max(${kycDecisions.createdAt})` })
        .from(kycDecisions)
        .where(eq(kycDecisions.userId, userId))
        .groupBy(kycDecisions.subject);
      const decidedAt = (subject: string) => {
        const at = decisions.find((row) => row.subject === subject)?.at;
        return at ? new Date(at) : null;
      };
      const names: Record<number, string> = {
        [KYC_STATUS.NONE]: 'none',
        [KYC_STATUS.VERIFIED]: 'verified',
        [KYC_STATUS.UNDER_REVIEW]: 'underReview',
        [KYC_STATUS.FAILED]: 'failed',
        [KYC_STATUS.EXPIRED]: 'expired',
      };
      const nameOf = (value: number) => names[value] ?? String(value);
      return [
        { step: 'basic', status: nameOf(status.user.status), decidedAt: decidedAt('basic') },
        { step: 'investor', status: nameOf(status.investor.status), decidedAt: decidedAt('investor') },
        { step: 'aml', status: nameOf(status.aml), decidedAt: decidedAt('aml') },
        { step: 'qualified', status: nameOf(status.qualify), decidedAt: decidedAt('qualified') },
      ];
    },
  };
}
