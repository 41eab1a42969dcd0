import { randomUUID } from 'node:crypto';
import type { Locale } from '@meridian/contracts/locale';
import { toDecimalString } from '@meridian/contracts/money';
import {
  type Statement,
  type StatementFileFormat,
  type StatementGeneration,
  type StatementRequest,
  statementSchema,
} from '@meridian/contracts/statements';
import { and, desc, eq, lt } from 'drizzle-orm';
import type { Db } from '../../platform/db/client.ts';
import { isSqlState, SQLSTATE_UNIQUE_VIOLATION } from '../../platform/db/sql-state.ts';
import { DomainError } from '../../platform/http/errors.ts';
import type { Clock } from '../../platform/clock/clock.ts';
import { PriceDecimal } from '../../platform/prices/types.ts';
import {
  type StatementOwner,
  statementAccounts,
  statementActivity,
  statementEntryFees,
  statementLoanEntries,
} from '../ledger/ledger.service.ts';
import { type AccountWithActivity, assembleStatement, type CardRateSince, DailyPrices } from './statements.build.ts';
import { loanSection } from './statements.loans.ts';
import { coinTrackerCsv, koinlyCsv, statementCsv, taxRows } from './statements.csv.ts';
import { statementPdf } from './statements.pdf.ts';
import { statementGenerations } from './statements.tables.ts';

const DAY_MS = 86_400_000;
/** A RUNNING generation older than this is taken as lost (its process stopped) and marked FAILED. */
export const STATEMENT_GENERATION_STALE_MS = 10 * 60_000;
/** Progress is written at most this often while a generation runs. */
const PROGRESS_WRITE_MS = 250;

/** What the statements read from other modules (their services). */
export interface StatementsDeps {
  /** The primary: the generation rows. */
  db: Db;
  /** The ledger reads of a build, which may lag (the replica when one is configured, `Database.reads`). */
  reads: Db;
  clock: Clock;
  /** The market's stored daily closes (`MarketPrices.dailyClosesUsd`). */
  prices: {
    dailyClosesUsd(fromDay: string, toDay: string): Promise<Map<string, { day: string; closeUsd: PriceDecimal }[]>>;
  };
  /** The user's cards (`cards.service`): their ids name the card ledger accounts. */
  cards: {
    list(userId: string): Promise<{ id: number; last4: string }[]>;
    /** A card currency's rate history, USD per unit, oldest first (`sinceAt` null: before any change). */
    usdPerUnitHistory(currency: 'EUR' | 'GBP' | 'JPY'): Promise<{ sinceAt: Date | null; usdPerUnit: string }[]>;
  };
  /** The user's loans' term interest by ledger reference (`loans.service`). */
  loans: { termInterestByReference(userId: string): Promise<Map<string, bigint>> };
  /** The user's trusts (`trust.service`): their ids name the trust ledger accounts. */
  trusts: { list(userId: string): Promise<{ id: number; name: string }[]> };
  log: { error(detail: object, message: string): void };
}

/** A file to send: its bytes, type and name. */
export interface StatementFile {
  bytes: Buffer;
  mimeType: string;
  fileName: string;
}

type Row = typeof statementGenerations.$inferSelect;

/** A stored statement with the fields added since it was stored filled with their defaults (empty lists). */
function storedStatement(content: Statement): Statement {
  return statementSchema.parse(content);
}

const CARD_CURRENCIES_VALUED = ['EUR', 'GBP', 'JPY'] as const;

function toGeneration(row: Row): StatementGeneration {
  return {
    id: row.id,
    from: row.fromDay,
    to: row.toDay,
    status: row.status as StatementGeneration['status'],
    progressPercent: row.progressPercent,
    createdAt: row.createdAt.toISOString(),
    statement: row.status === 'DONE' && row.content ? storedStatement(row.content) : null,
  };
}

/**
 * Account statements and tax exports (docs/statements.md). `start` claims the user's one
 * generation slot (a RUNNING row; the partial unique index refuses a second one with
 * STATEMENT_GENERATION_RUNNING) and reads the ledger in the background, one account at a time,
 * writing its progress; `generation` polls it; `file` renders the stored statement as PDF, CSV or a
 * tax tool's CSV.
 */
export class StatementsService {
  private readonly running = new Map<string, Promise<void>>();

  constructor(private readonly deps: StatementsDeps) {}

  /**
   * Start generating the user's statement for `request` (UTC days, validated by the contract).
   * @throws DomainError STATEMENT_GENERATION_RUNNING (250) while another of the user's generations runs.
   */
  async start(userId: string, request: StatementRequest): Promise<StatementGeneration> {
    const { db, clock } = this.deps;
    const now = clock.now();
    await db
      .update(statementGenerations)
      .set({ status: 'FAILED', finishedAt: now })
      .where(
        and(
          eq(statementGenerations.userId, userId),
          eq(statementGenerations.status, 'RUNNING'),
          lt(statementGenerations.createdAt, new Date(now.getTime() - STATEMENT_GENERATION_STALE_MS)),
        ),
      );
    let row: Row;
    try {
      [row] = (await db
        .insert(statementGenerations)
        .values({
          id: randomUUID(),
          userId,
          fromDay: request.from,
          toDay: request.to,
          status: 'RUNNING',
          createdAt: now,
        })
        .returning()) as [Row];
    } catch (error) {
      if (isSqlState(error, SQLSTATE_UNIQUE_VIOLATION)) throw new DomainError('STATEMENT_GENERATION_RUNNING');
      throw error;
    }
    const run = this.run(row).finally(() => this.running.delete(row.id));
    this.running.set(row.id, run);
    return toGeneration(row);
  }

  /** Wait until generation `id` has finished in this process (tests, shutdown). */
  async settled(id?: string): Promise<void> {
    await Promise.all(id ? [this.running.get(id)] : [...this.running.values()]);
  }

  /**
   * One of the user's generations.
   * @throws DomainError NOT_FOUND for an unknown id or another user's generation.
   */
  async generation(userId: string, id: string): Promise<StatementGeneration> {
    return toGeneration(await this.row(userId, id));
  }

  /** The user's latest generation, or null. */
  async latest(userId: string): Promise<StatementGeneration | null> {
    const [row] = await this.deps.db
      .select()
      .from(statementGenerations)
      .where(eq(statementGenerations.userId, userId))
      .orderBy(desc(statementGenerations.createdAt))
      .limit(1);
    return row ? toGeneration(row) : null;
  }

  /**
   * The generated statement as a file: `pdf` (in `locale`), `csv`, `koinly` (Koinly universal CSV)
   * or `cointracker` (CoinTracker CSV).
   * @throws DomainError NOT_FOUND; STATEMENT_NOT_READY (251) while it runs; STATEMENT_GENERATION_FAILED (252).
   */
  async file(userId: string, id: string, format: StatementFileFormat, locale: Locale): Promise<StatementFile> {
    const row = await this.row(userId, id);
    if (row.status === 'RUNNING') throw new DomainError('STATEMENT_NOT_READY', { percent: row.progressPercent });
    if (row.status !== 'DONE' || !row.content) throw new DomainError('STATEMENT_GENERATION_FAILED');
    const statement = storedStatement(row.content);
    const base = `meridian-statement-${statement.from}-${statement.to}`;
    switch (format) {
      case 'pdf':
        return { bytes: await statementPdf(statement, locale), mimeType: 'application/pdf', fileName: `${base}.pdf` };
      case 'csv':
        return {
          bytes: Buffer.from(statementCsv(statement)),
          mimeType: 'text/csv; charset=utf-8',
          fileName: `${base}.csv`,
        };
      case 'koinly':
        return {
          bytes: Buffer.from(koinlyCsv(taxRows(statement))),
          mimeType: 'text/csv; charset=utf-8',
          fileName: `meridian-koinly-${statement.from}-${statement.to}.csv`,
        };
      case 'cointracker':
        return {
          bytes: Buffer.from(coinTrackerCsv(taxRows(statement))),
          mimeType: 'text/csv; charset=utf-8',
          fileName: `meridian-cointracker-${statement.from}-${statement.to}.csv`,
        };
    }
  }

  /**
   * Build the user's statement for UTC days `fromDay`–`toDay` from the ledger's postings (no
   * generation row): what the background run does, and what tests call directly.
   * @param onProgress called with 0–100 as accounts are read.
   */
  async build(
    userId: string,
    fromDay: string,
    toDay: string,
    onProgress: (percent: number) => Promise<void> = async () => {},
  ): Promise<Statement> {
    const { reads: db, cards, trusts, prices, clock, loans } = this.deps;
    const fromAt = new Date(`${fromDay}T00:00:00Z`);
    const toAt = new Date(Date.parse(`${toDay}T00:00:00Z`) + DAY_MS);
    const [cardList, trustList] = await Promise.all([cards.list(userId), trusts.list(userId)]);
    const labels = new Map<string, string>();
    const owners: StatementOwner[] = [{ ownerKind: 'user', ownerId: userId }];
    for (const card of cardList) {
      owners.push({ ownerKind: 'card', ownerId: String(card.id) });
      labels.set(`card:${card.id}`, `**** ${card.last4}`);
    }
    for (const trust of trustList) {
      owners.push({ ownerKind: 'trust', ownerId: String(trust.id) });
      labels.set(`trust:${trust.id}`, trust.name);
    }
    const accounts = await statementAccounts(db, owners);
    const items: AccountWithActivity[] = [];
    for (const [index, account] of accounts.entries()) {
      items.push({
        account,
        activity: await statementActivity(db, account.id, fromAt, toAt),
        ownerLabel: labels.get(`${account.ownerKind}:${account.ownerId}`) ?? null,
      });
      await onProgress(Math.floor(((index + 1) * 90) / accounts.length));
    }
    const cardRates = new Map<string, CardRateSince[]>();
    for (const currency of CARD_CURRENCIES_VALUED) {
      const history = await cards.usdPerUnitHistory(currency);
      cardRates.set(
        currency,
        history.map((rate) => ({ sinceAt: rate.sinceAt, usdPerUnit: new PriceDecimal(rate.usdPerUnit) })),
      );
    }
    const daily = new DailyPrices(await prices.dailyClosesUsd(fromDay, toDay), cardRates);
    const statement = assembleStatement(fromDay, toDay, clock.now(), items, daily);
    const entryIds = [...new Set(items.flatMap((item) => item.activity.postings.map((posting) => posting.entryId)))];
    const entryFees = (
      await statementEntryFees(
        db,
        entryIds.sort((a, b) => a - b),
      )
    ).map((fee) => ({
      entryId: fee.entryId,
      asset: fee.asset,
      amount: toDecimalString(fee.feeMinor, fee.asset),
    }));
    const [loanEntries, termInterest] = await Promise.all([
      statementLoanEntries(db, userId, toAt),
      loans.termInterestByReference(userId),
    ]);
    return { ...statement, entryFees, loans: loanSection(loanEntries, termInterest, fromAt) };
  }

  private async row(userId: string, id: string): Promise<Row> {
    const [row] = await this.deps.db
      .select()
      .from(statementGenerations)
      .where(and(eq(statementGenerations.id, id), eq(statementGenerations.userId, userId)));
    if (!row) throw new DomainError('NOT_FOUND');
    return row;
  }

  /** The background part of a generation: build, writing progress, then store the statement. */
  private async run(row: Row): Promise<void> {
    const { db, clock, log } = this.deps;
    // How often progress is written is a duration, not calendar time: the monotonic clock.
    let writtenAtMs = Number.NEGATIVE_INFINITY;
    const progress = async (percent: number) => {
      const nowMs = performance.now();
      if (nowMs - writtenAtMs < PROGRESS_WRITE_MS) return;
      writtenAtMs = nowMs;
      await db
        .update(statementGenerations)
        .set({ progressPercent: percent })
        .where(and(eq(statementGenerations.id, row.id), eq(statementGenerations.status, 'RUNNING')));
    };
    try {
      // Let the request that started the generation answer first.
      await new Promise((resolve) => setImmediate(resolve));
      const statement = await this.build(row.userId, row.fromDay, row.toDay, progress);
      await db
        .update(statementGenerations)
        .set({ status: 'DONE', progressPercent: 100, content: statement, finishedAt: clock.now() })
        .where(and(eq(statementGenerations.id, row.id), eq(statementGenerations.status, 'RUNNING')));
    } catch (error) {
      log.error({ err: error, generationId: row.id }, 'statement generation failed');
      await db
        .update(statementGenerations)
        .set({ status: 'FAILED', finishedAt: clock.now() })
        .where(eq(statementGenerations.id, row.id))
        .catch(() => undefined);
    }
  }
}
