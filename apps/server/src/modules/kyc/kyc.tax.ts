import { TAX_CHANGE_REPORT_DAYS, type TaxFormInput, type TaxState } from '@meridian/contracts/kyc';
import { and, asc, desc, eq, gt, isNotNull, isNull, lte, notExists } from 'drizzle-orm';
import { hongKongDay } from '../../platform/calendar/business-calendar.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { FieldError } from '../../platform/http/errors.ts';
import { kycResidenceChanges, kycTaxForms } from './kyc.tables.ts';
import { type KycContext, basicRow } from './kyc.internal.ts';
import { refreshLevel } from './kyc.levels.ts';

/** Most tax-form deadlines one daily run handles (the rest wait for the next run). */
const TAX_DEADLINE_BATCH_MAX = 500;

/** A tax form as shown back: US and foreign TINs masked but for their last 4 characters. */
export function maskTaxData(data: Record<string, unknown>): Record<string, unknown> {
  const mask = (value: unknown) =>
    typeof value === 'string' && value.length > 4 ? `${'*'.repeat(value.length - 4)}${value.slice(-4)}` : value;
  const residences = Array.isArray(data.residences)
    ? (data.residences as Record<string, unknown>[]).map((item) => ({ ...item, tin: mask(item.tin) }))
    : undefined;
  return { ...data, ...(data.tin !== undefined && { tin: mask(data.tin) }), ...(residences && { residences }) };
}

/** Mark the tax form on file of `userId` superseded at `now`. @returns whether there was one. */
export async function supersedeTaxForm(tx: DbOrTx, userId: string, now: Date): Promise<boolean> {
  const superseded = await tx
    .update(kycTaxForms)
    .set({ supersededAt: now })
    .where(and(eq(kycTaxForms.userId, userId), isNull(kycTaxForms.supersededAt)))
    .returning({ id: kycTaxForms.id });
  return superseded.length > 0;
}

/**
 * `GET investor/tax`: the form on file (the TIN masked but for its last 4 characters), and whether a
 * new form is asked for after a change of country, due by when.
 */
export async function taxState(ctx: KycContext, userId: string): Promise<TaxState> {
  const rows = await ctx.db
    .select()
    .from(kycTaxForms)
    .where(eq(kycTaxForms.userId, userId))
    .orderBy(desc(kycTaxForms.id));
  const current = rows.find((row) => row.supersededAt === null);
  const request = await taxFormRequest(ctx, userId);
  return {
    current: current
      ? {
          id: current.id,
          form: current.form as 'W9' | 'W8BEN',
          summary: maskTaxData(current.data),
          createdAt: current.createdAt.toISOString(),
        }
      : null,
    supersededCount: rows.filter((row) => row.supersededAt !== null).length,
    changeReportDays: TAX_CHANGE_REPORT_DAYS,
    isNewFormRequired: request !== null,
    newFormDueAt: request?.dueAt.toISOString() ?? null,
  };
}

/**
 * The new tax form asked for after a change of country (the newest approved change with a due
 * time), unless a form was filed after that change was approved.
 */
export async function taxFormRequest(ctx: KycContext, userId: string): Promise<{ dueAt: Date } | null> {
  const [change] = await ctx.db
    .select()
    .from(kycResidenceChanges)
    .where(and(eq(kycResidenceChanges.userId, userId), isNotNull(kycResidenceChanges.taxFormDueAt)))
    .orderBy(desc(kycResidenceChanges.id))
    .limit(1);
  if (!change?.taxFormDueAt || !change.decidedAt) return null;
  const filed = await ctx.db
    .select({ id: kycTaxForms.id })
    .from(kycTaxForms)
    .where(and(eq(kycTaxForms.userId, userId), gt(kycTaxForms.createdAt, change.decidedAt)))
    .limit(1);
  return filed.length > 0 ? null : { dueAt: change.taxFormDueAt };
}

/** The tax forms (CRS/FATCA self-certification): the form on file, filing one, and the 30-day deadline after a change. Part of the KYC service (`kyc.service.ts`). */
export function createTaxSteps(ctx: KycContext) {
  return {
    taxState: (userId: string) => taxState(ctx, userId),
    /**
     * `POST investor/tax`: file a form; the one on file is marked superseded in the same transaction.
     * A US person (nationality or residence US in the verified identity, or born in the US) must file
     * a W-9. Each W-8BEN residence must be a country of the list.
     * @throws FieldError `form` (validation.usPersonW9), `residences.N.country` (validation.country).
     */
    async fileTax(userId: string, input: TaxFormInput): Promise<TaxState> {
      if (input.form === 'W8BEN') {
        const basic = (await basicRow(ctx, userId))?.submitted ?? {};
        const isUsPerson =
          input.isUsBorn ||
          basic.nationality === 'US' ||
          basic.residence === 'US' ||
          input.residences.some((item) => item.country === 'US');
        if (isUsPerson) throw new FieldError('form', 'validation.usPersonW9');
        const unknown = input.residences.findIndex((item) => !ctx.deps.isKnownCountry(item.country));
        if (unknown >= 0) throw new FieldError(`residences.${unknown}.country`, 'validation.country');
      }
      const now = ctx.now();
      await ctx.db.transaction(async (tx) => {
        await supersedeTaxForm(tx, userId, now);
        await tx.insert(kycTaxForms).values({
          userId,
          form: input.form,
          data: input as unknown as Record<string, unknown>,
          // From the app's clock: a form counts only when filed after a change of country (decidedAt).
          createdAt: ctx.now(),
        });
      });
      await refreshLevel(ctx, userId);
      return taxState(ctx, userId);
    },
    /**
     * The daily tax-form deadline (job `kyc.tax-form-deadline`): a user asked for a new tax form after
     * a change of country who filed none within 30 days drops from level 2 (or 3) to level 1 and is
     * told; each request lapses once (`taxFormLapsedAt`). Filing a form later restores level 2 when
     * the other conditions hold (`refreshLevel`). Runs on `db` (the job's transaction).
     * @returns how many users were dropped to level 1.
     */
    async runTaxFormDeadlines(now: Date = ctx.now(), db: DbOrTx = ctx.db): Promise<{ lapsed: number }> {
      const due = await db
        .select()
        .from(kycResidenceChanges)
        .where(
          and(
            lte(kycResidenceChanges.taxFormDueAt, now),
            isNull(kycResidenceChanges.taxFormLapsedAt),
            notExists(
              db
                .select({ id: kycTaxForms.id })
                .from(kycTaxForms)
                .where(
                  and(
                    eq(kycTaxForms.userId, kycResidenceChanges.userId),
                    gt(kycTaxForms.createdAt, kycResidenceChanges.decidedAt),
                  ),
                ),
            ),
          ),
        )
        .orderBy(asc(kycResidenceChanges.id))
        .limit(TAX_DEADLINE_BATCH_MAX);
      let lapsed = 0;
      for (const change of due) {
        await db.transaction(async (tx) => {
          await tx
            .update(kycResidenceChanges)
            .set({ taxFormLapsedAt: now })
            .where(eq(kycResidenceChanges.id, change.id));
          if ((await ctx.deps.identity.kycLevelOf(change.userId, tx)) < 2) return;
          await ctx.deps.identity.setKycLevel(change.userId, 1, tx);
          await ctx.deps.notify(
            {
              userId: change.userId,
              category: 'KYC',
              title: { 'en-US': 'Investor services suspended', 'zh-HK': '投資者服務已暫停' },
              body: {
                'en-US':
                  'No new tax form was filed by {date} after your change of residence, so investor services are suspended. File a new tax form to open them again.',
                'zh-HK': '你變更居住地後未於 {date} 前提交新的稅務表格，投資者服務已暫停。提交新的稅務表格後即可恢復。',
              },
              params: { date: hongKongDay(change.taxFormDueAt!) },
              link: '/identity/tax',
            },
            tx,
          );
          lapsed += 1;
        });
      }
      return { lapsed };
    },
  };
}
