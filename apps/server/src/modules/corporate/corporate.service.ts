import type { CardCurrency } from '@meridian/contracts/cards';
import {
  type DecideProApplicationBody,
  type OpsProApplication,
  type OpsProApplicationQuery,
  type ParsedApplyProBody,
  PRO_APPLICATIONS_CSV_MAX_ROWS,
  type ProAccount,
  type ProApplication,
  type ProApplicationStatus,
} from '@meridian/contracts/corporate';
import { toDecimalString } from '@meridian/contracts/money';
import { type Page, totalPages } from '@meridian/contracts/pagination';
import { stringify } from 'csv-stringify/sync';
import { and, count, desc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { isSqlState, SQLSTATE_UNIQUE_VIOLATION } from '../../platform/db/sql-state.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { proApplications } from './corporate.tables.ts';
import type { CorporateServiceDeps, ProApplicationRow } from './corporate.types.ts';

/** Users whose emails one look-up asks for (identity's `emailsOf` takes at most 500). */
const EMAIL_LOOKUP_BATCH = 500;

/** A stored row as its author sees it. */
function toApplication(row: ProApplicationRow): ProApplication {
  const currency = row.currency as CardCurrency;
  return {
    id: row.id,
    status: row.status as ProApplicationStatus,
    companyName: row.companyName,
    registrationNumber: row.registrationNumber,
    expectedMonthlySpend: toDecimalString(row.expectedMonthlySpendMinor, currency),
    currency,
    cardCount: row.cardCount,
    contactName: row.contactName,
    contactEmail: row.contactEmail,
    contactPhone: row.contactPhone,
    reply: row.reply,
    createdAt: row.createdAt.toISOString(),
    decidedAt: row.decidedAt?.toISOString() ?? null,
  };
}

function toOpsApplication(row: ProApplicationRow, emails: Map<string, string>): OpsProApplication {
  return {
    ...toApplication(row),
    userId: row.userId,
    userEmail: emails.get(row.userId) ?? null,
    decidedBy: row.decidedBy,
  };
}

/** `%text%` for ILIKE with the pattern characters of `text` escaped. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * A cell a spreadsheet would read as a formula (`=`, `+`, `-`, `@`, tab, CR) is prefixed with `'`
 * (OWASP "CSV injection"): company names and contacts are typed by customers.
 */
function csvCell(value: string | number | null): string | number {
  if (value === null) return '';
  if (typeof value === 'number') return value;
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/**
 * PRO accounts (`docs/corporate.md`): a user's application
 * (one open per user, none after an approval), its decision by an operator with a reply (once;
 * messaged to the user in both languages in the decision's transaction), the back office's list and
 * CSV, and `isApprovedPro` for the cards module's employee cards.
 */
export function createCorporateService(deps: CorporateServiceDeps) {
  const { db } = deps;

  async function newestOf(userId: string): Promise<ProApplicationRow | undefined> {
    const [row] = await db
      .select()
      .from(proApplications)
      .where(eq(proApplications.userId, userId))
      .orderBy(desc(proApplications.id))
      .limit(1);
    return row;
  }

  /** The SUBMITTED or APPROVED row of a user, if any (at most one: the partial unique index). */
  async function openOrApprovedOf(dbOrTx: DbOrTx, userId: string): Promise<ProApplicationRow | undefined> {
    const [row] = await dbOrTx
      .select()
      .from(proApplications)
      .where(and(eq(proApplications.userId, userId), inArray(proApplications.status, ['SUBMITTED', 'APPROVED'])))
      .limit(1);
    return row;
  }

  function refusalOf(row: ProApplicationRow): DomainError {
    return new DomainError(row.status === 'APPROVED' ? 'PRO_ACCOUNT_ACTIVE' : 'PRO_APPLICATION_OPEN');
  }

  function whereOf(query: Pick<OpsProApplicationQuery, 'status' | 'q'>): SQL | undefined {
    const q = query.q?.trim();
    return and(
      query.status ? eq(proApplications.status, query.status) : undefined,
      q
        ? or(
            ilike(proApplications.companyName, containsPattern(q)),
            ilike(proApplications.registrationNumber, containsPattern(q)),
            ilike(proApplications.contactEmail, containsPattern(q)),
            sql`${proApplications.userId}::text = ${q}`,
          )
        : undefined,
    );
  }

  /** Open applications first (oldest first: the queue), then decided ones newest first. */
  const queueOrder = [
    sql`CASE WHEN ${proApplications.status} = 'SUBMITTED' THEN 0 ELSE 1 END`,
    sql`CASE WHEN ${proApplications.status} = 'SUBMITTED' THEN ${proApplications.id} ELSE -${proApplications.id} END`,
  ];

  async function emailsOf(rows: readonly ProApplicationRow[]): Promise<Map<string, string>> {
    const ids = [...new Set(rows.map((row) => row.userId))];
    const emails = new Map<string, string>();
    for (let start = 0; start < ids.length; start += EMAIL_LOOKUP_BATCH)
      for (const [id, email] of await deps.emailsOf(ids.slice(start, start + EMAIL_LOOKUP_BATCH)))
        emails.set(id, email);
    return emails;
  }

  return {
    /** Whether the user's PRO account is approved (an APPROVED application; the cards module's employee cards). */
    async isApprovedPro(userId: string): Promise<boolean> {
      const [row] = await db
        .select({ id: proApplications.id })
        .from(proApplications)
        .where(and(eq(proApplications.userId, userId), eq(proApplications.status, 'APPROVED')))
        .limit(1);
      return row !== undefined;
    },

    /** `GET corporate/pro`: approved or not, the newest application, and the company investor profile as the prefill. */
    async proAccount(userId: string): Promise<ProAccount> {
      const [newest, prefill, approved] = await Promise.all([
        newestOf(userId),
        deps.companyProfileOf(userId),
        openOrApprovedOf(db, userId),
      ]);
      return {
        isPro: approved?.status === 'APPROVED',
        application: newest ? toApplication(approved ?? newest) : null,
        prefill,
      };
    },

    /**
     * `POST corporate/pro/apply`: a new SUBMITTED application. Two concurrent applications of one
     * user meet the partial unique index; the loser is answered like a sequential second one.
     * @throws DomainError PRO_APPLICATION_OPEN (280) while one is SUBMITTED, PRO_ACCOUNT_ACTIVE (281) once approved.
     */
    async apply(userId: string, body: ParsedApplyProBody): Promise<ProApplication> {
      const existing = await openOrApprovedOf(db, userId);
      if (existing) throw refusalOf(existing);
      try {
        const [row] = await db
          .insert(proApplications)
          .values({
            userId,
            companyName: body.companyName,
            registrationNumber: body.registrationNumber,
            expectedMonthlySpendMinor: body.expectedMonthlySpendMinor,
            currency: body.currency,
            cardCount: body.cardCount,
            contactName: body.contactName,
            contactEmail: body.contactEmail,
            contactPhone: body.contactPhone,
            status: 'SUBMITTED',
            createdAt: deps.now(),
          })
          .returning();
        return toApplication(row!);
      } catch (error) {
        if (!isSqlState(error, SQLSTATE_UNIQUE_VIOLATION)) throw error;
        const twin = await openOrApprovedOf(db, userId);
        if (twin) throw refusalOf(twin);
        throw error;
      }
    },

    /** `GET admin/pro-applications`: a page of the queue (open first, oldest first; then decided, newest first). */
    async listForOperators(query: OpsProApplicationQuery): Promise<Page<OpsProApplication>> {
      const where = whereOf(query);
      const [total] = await db.select({ n: count() }).from(proApplications).where(where);
      const rows = await db
        .select()
        .from(proApplications)
        .where(where)
        .orderBy(...queueOrder)
        .limit(query.pageSize)
        .offset((query.pageID - 1) * query.pageSize);
      const emails = await emailsOf(rows);
      const totalCount = total?.n ?? 0;
      return {
        list: rows.map((row) => toOpsApplication(row, emails)),
        pageID: query.pageID,
        pageSize: query.pageSize,
        totalPage: totalPages(totalCount, query.pageSize),
        totalCount,
      };
    },

    /**
     * `GET admin/pro-applications.csv`: every match of the list's filters in the list's order, at
     * most `PRO_APPLICATIONS_CSV_MAX_ROWS`, UTF-8 with a BOM (spreadsheets then read Chinese names).
     */
    async exportCsv(query: Pick<OpsProApplicationQuery, 'status' | 'q'>): Promise<string> {
      const rows = await db
        .select()
        .from(proApplications)
        .where(whereOf(query))
        .orderBy(...queueOrder)
        .limit(PRO_APPLICATIONS_CSV_MAX_ROWS);
      const emails = await emailsOf(rows);
      const columns = [
        'id',
        'status',
        'userId',
        'userEmail',
        'companyName',
        'registrationNumber',
        'expectedMonthlySpend',
        'currency',
        'cardCount',
        'contactName',
        'contactEmail',
        'contactPhone',
        'createdAt',
        'decidedAt',
        'decidedBy',
        'reply',
      ] as const;
      const records = rows.map((row) => {
        const item = toOpsApplication(row, emails);
        return Object.fromEntries(columns.map((column) => [column, csvCell(item[column])]));
      });
      return `\uFEFF${stringify(records, { header: true, columns: [...columns] })}`;
    },

    /**
     * `POST admin/pro-applications/:id/decide`: approve or reject a SUBMITTED application once, with
     * the reply; the user gets a message (both languages, category ACCOUNT, linking to the card
     * account page) in the same transaction.
     * @returns the application before and after (the audit row).
     * @throws DomainError NOT_FOUND, PRO_APPLICATION_STATE_CHANGED (282) once decided.
     */
    async decide(
      id: number,
      body: DecideProApplicationBody,
      decidedBy: string,
    ): Promise<{ before: OpsProApplication; after: OpsProApplication }> {
      const result = await db.transaction(async (tx) => {
        const [found] = await tx.select().from(proApplications).where(eq(proApplications.id, id)).for('update');
        if (!found) throw new DomainError('NOT_FOUND');
        if (found.status !== 'SUBMITTED') throw new DomainError('PRO_APPLICATION_STATE_CHANGED');
        const [decided] = await tx
          .update(proApplications)
          .set({
            status: body.isApproved ? 'APPROVED' : 'REJECTED',
            reply: body.reply.trim(),
            decidedBy,
            decidedAt: deps.now(),
          })
          .where(and(eq(proApplications.id, id), eq(proApplications.status, 'SUBMITTED')))
          .returning();
        if (!decided) throw new DomainError('PRO_APPLICATION_STATE_CHANGED');
        await deps.notify(
          body.isApproved
            ? {
                userId: decided.userId,
                category: 'ACCOUNT',
                title: { 'en-US': 'PRO account approved', 'zh-HK': 'PRO 帳戶已獲批核' },
                body: {
                  'en-US':
                    'Your PRO account application for {company} was approved. You can now issue cards to your employees. Account manager: {reply}',
                  'zh-HK': '{company} 的 PRO 帳戶申請已獲批核，你現在可以為員工發卡。客戶經理回覆：{reply}',
                },
                params: { company: decided.companyName, reply: decided.reply ?? '' },
                link: '/my/account/fiscard',
              }
            : {
                userId: decided.userId,
                category: 'ACCOUNT',
                title: { 'en-US': 'PRO account application not approved', 'zh-HK': 'PRO 帳戶申請未獲批核' },
                body: {
                  'en-US':
                    'Your PRO account application for {company} was not approved. Account manager: {reply} You may apply again.',
                  'zh-HK': '{company} 的 PRO 帳戶申請未獲批核。客戶經理回覆：{reply} 你可以重新申請。',
                },
                params: { company: decided.companyName, reply: decided.reply ?? '' },
                link: '/my/account/fiscard',
              },
          tx,
        );
        return { found, decided };
      });
      const emails = await emailsOf([result.found]);
      return { before: toOpsApplication(result.found, emails), after: toOpsApplication(result.decided, emails) };
    },
  };
}

/** The corporate service (routes, the cards module's employee cards, tests). */
export type CorporateService = ReturnType<typeof createCorporateService>;
