import type { Dashboard, UserDetail } from '@meridian/contracts/back-office';
import type { userNoteSchema, userRowSchema } from '@meridian/contracts/back-office';
import { isAssetCode, toDecimalString } from '@meridian/contracts/money';
import type { Page } from '@meridian/contracts/pagination';
import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { desc, eq } from 'drizzle-orm';
import type { z } from 'zod';
import { BUSINESS_TIME_ZONE } from '../../platform/calendar/business-calendar.ts';
import type { ManualAdjustments } from './admin.adjustments.ts';
import type { Db } from '../../platform/db/client.ts';
import type { ExchangeService } from '../exchange/exchange.service.ts';
import type { IdentityService, OperatorActor, OperatorUserRow } from '../identity/identity.service.ts';
import type { KycService } from '../kyc/kyc.service.ts';
import { checkLedgerInvariants, liabilitiesAndHoldings, userBalances } from '../ledger/ledger.service.ts';
import type { NoticeService, NotifyInput } from '../notices/notices.service.ts';
import type { WalletService } from '../wallet/wallet.service.ts';
import { userNotes } from './admin.users.tables.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

type UserRow = z.infer<typeof userRowSchema>;
type UserNote = z.infer<typeof userNoteSchema>;
type QueueStat = Dashboard['queues'][number];

/** The KYC review SLA: one Hong Kong working day, counted as 24 hours. */
export const KYC_REVIEW_SLA_HOURS = 24;
/** How many history items, messages and notes the user page shows. */
export const USER_PAGE_HISTORY_MAX = 50;
const USER_PAGE_MESSAGES_MAX = 20;
/** Most users a name search in KYC adds to a user search. */
const NAME_MATCHES_MAX = 500;

/** What `BackOfficeUsers` needs: the database (its own notes table) and the other modules' services. */
export interface BackOfficeUsersDeps {
  db: Db;
  identity: IdentityService;
  wallet: WalletService;
  exchange: ExchangeService;
  kyc: KycService;
  notices: NoticeService;
  /** Proposed manual adjustments (the dashboard's queue). */
  adjustments: Pick<ManualAdjustments, 'queueSize'>;
  /** Told when a message to the user could not be written (the operator's action stands). */
  log?: { warn(detail: object, message: string): void };
  /** The app's clock. */
  clock: () => Date;
}

/** The operator acting: the audit fields of `currentOperator(request)` and the request's IP. */
export interface ActingOperator {
  id: number;
  email: string;
  ip: string | null;
}

/** A state change's audit detail: the user page's relevant fields before and after. */
export interface UserChange {
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  detail: UserDetail;
}

/** The messages a user receives for back-office actions on their account, in both languages. */
const NOTICES = {
  frozen: {
    category: 'ACCOUNT',
    title: { 'en-US': 'Your account has been frozen', 'zh-HK': '你的帳戶已被凍結' },
    body: {
      'en-US':
        'You can still sign in and view your account, but withdrawals and exchanges are paused. Please contact support.',
      'zh-HK': '你仍可登入及查看帳戶，但提幣及兌換已暫停。請聯絡客服。',
    },
  },
  unfrozen: {
    category: 'ACCOUNT',
    title: { 'en-US': 'Your account is no longer frozen', 'zh-HK': '你的帳戶已解除凍結' },
    body: {
      'en-US': 'Withdrawals and exchanges are available again.',
      'zh-HK': '提幣及兌換已恢復。',
    },
  },
  totpReset: {
    category: 'SECURITY',
    title: { 'en-US': 'Your authenticator was removed', 'zh-HK': '你的驗證器已被移除' },
    body: {
      'en-US':
        'At your request, support removed the authenticator app from your account. Withdrawals are held for 24 hours. If you did not ask for this, contact support at once.',
      'zh-HK': '應你的要求，客服已從你的帳戶移除驗證器。提幣將暫停 24 小時。如非本人要求，請立即聯絡客服。',
    },
  },
} as const satisfies Record<string, Omit<NotifyInput, 'userId'>>;

/** `amountMinor` of `asset` as a decimal string (an unknown asset code: its minor units as they are). */
function decimalOf(amountMinor: bigint, asset: string): string {
  return isAssetCode(asset) ? toDecimalString(amountMinor, asset) : amountMinor.toString();
}

function iso(date: Date | null): string | null {
  return date ? date.toISOString() : null;
}

/**
 * The back office's users (docs/back-office.md: users and the dashboard): search, a user's page across
 * modules, freeze and unfreeze, authenticator reset, notes, and the operators' dashboard. It reads
 * and changes other modules only through their services (and the ledger's functions); it owns the
 * `user_notes` table. The routes (`admin.users.routes.ts`) check roles and write the audit trail.
 */
export class BackOfficeUsers {
  private readonly now: () => Date;

  constructor(private readonly deps: BackOfficeUsersDeps) {
    this.now = deps.clock;
  }

  // ---------------------------------------------------------------- dashboard

  /**
   * `GET admin/dashboard`: the review queues against their SLA, today's flows per asset (Hong Kong
   * day, amounts as decimal strings), the ledger invariants, and liabilities against holdings.
   */
  async dashboard(): Promise<Dashboard> {
    const { wallet, kyc, exchange, db } = this.deps;
    const now = this.now();
    const [kycQueue, walletQueues, adjustmentQueue] = await Promise.all([
      kyc.reviewQueueStats(),
      wallet.operatorQueues(),
      this.deps.adjustments.queueSize(),
    ]);
    const queue = (
      name: QueueStat['queue'],
      stat: { size: number; oldestAt: Date | null },
      slaHours: number | null,
    ): QueueStat => ({
      queue: name,
      size: stat.size,
      oldestAt: iso(stat.oldestAt),
      slaHours,
      isOverdue:
        slaHours !== null && stat.oldestAt !== null && now.getTime() - stat.oldestAt.getTime() > slaHours * 3_600_000,
    });
    const queues: QueueStat[] = [
      queue('kyc', kycQueue, KYC_REVIEW_SLA_HOURS),
      queue('withdrawals', walletQueues.withdrawals, null),
      queue('largeWithdrawals', walletQueues.largeWithdrawals, null),
      queue('screeningAlerts', walletQueues.screeningAlerts, null),
      queue('adjustments', adjustmentQueue, null),
    ];

    const dayStart = dayjs(now).tz(BUSINESS_TIME_ZONE).startOf('day');
    const from = dayStart.toDate();
    const to = dayStart.add(1, 'day').toDate();
    const [flows, swaps] = await Promise.all([
      wallet.flowTotalsBetween(from, to),
      exchange.swapTotalsBetween(from, to),
    ]);
    const today: Dashboard['today'] = [
      ...flows.map((flow) => ({
        kind: flow.kind,
        asset: flow.asset,
        count: flow.count,
        amount: decimalOf(flow.amountMinor, flow.asset),
      })),
      ...swaps.map((swap) => ({
        kind: 'swaps' as const,
        asset: swap.asset,
        count: swap.count,
        amount: decimalOf(swap.amountMinor, swap.asset),
      })),
    ];

    const report = await checkLedgerInvariants(db);
    const liabilities = (await liabilitiesAndHoldings(db)).map((line) => ({
      asset: line.asset,
      liabilities: decimalOf(line.liabilitiesMinor, line.asset),
      holdings: decimalOf(line.holdingsMinor, line.asset),
    }));
    return {
      queues,
      today,
      ledgerCheck: {
        isOk: report.isHeld,
        problems: report.results
          .filter((result) => !result.isHeld)
          .map((result) => `${result.description}: ${result.violationCount} violation(s)`),
        checkedAt: this.now().toISOString(),
      },
      liabilities,
    };
  }

  // ---------------------------------------------------------------- users

  /**
   * `GET admin/users`: users whose email or phone contains `q`, whose id is `q`, or whose KYC name
   * contains it; newest account first, one page. No `q`: every user.
   */
  async search(query: { q?: string | undefined; pageID: number; pageSize: number }): Promise<Page<UserRow>> {
    const q = query.q?.trim() ?? '';
    const alsoUserIds = q === '' ? [] : await this.deps.kyc.userIdsMatchingName(q, NAME_MATCHES_MAX);
    const page = await this.deps.identity.searchUsersForOperators({ ...query, q, alsoUserIds });
    const names = await this.deps.kyc.namesOf(page.list.map((row) => row.userId));
    return { ...page, list: page.list.map((row) => this.toRow(row, names.get(row.userId) ?? null)) };
  }

  /**
   * `GET admin/users/:userId`: profile, verification, balances (available and frozen per asset),
   * live sessions, the latest wallet records and swaps together (newest first, at most 50), the
   * latest messages and the operators' notes.
   * @throws DomainError NOT_FOUND.
   */
  async show(userId: string): Promise<UserDetail> {
    const { identity, kyc, wallet, exchange, notices, db } = this.deps;
    const view = await identity.operatorViewOf(userId);
    const [names, verification, balances, activity, swaps, messages, notes] = await Promise.all([
      kyc.namesOf([view.userId]),
      kyc.verificationStepsOf(view.userId, view.kycLevel),
      userBalances(db, view.userId),
      wallet.recentActivityOf(view.userId, USER_PAGE_HISTORY_MAX),
      exchange.listSwaps(view.userId, { pageID: 1, pageSize: USER_PAGE_HISTORY_MAX }),
      notices.list(view.userId, { pageID: 1, pageSize: USER_PAGE_MESSAGES_MAX }, 'en-US'),
      this.notesOf(view.userId),
    ]);

    const byAsset = new Map<string, { available: bigint; frozen: bigint }>();
    for (const balance of balances) {
      if (balance.type !== 'USER_AVAILABLE' && balance.type !== 'USER_FROZEN') continue;
      const line = byAsset.get(balance.asset) ?? { available: 0n, frozen: 0n };
      if (balance.type === 'USER_AVAILABLE') line.available += balance.balanceMinor;
      else line.frozen += balance.balanceMinor;
      byAsset.set(balance.asset, line);
    }

    const history = [
      ...activity.map((item) => ({
        at: item.at,
        module: 'wallet',
        kind: item.kind,
        asset: item.asset,
        amount: decimalOf(item.amountMinor, item.asset),
        status: item.status,
      })),
      ...swaps.list.map((swap) => ({
        at: new Date(swap.executedAt),
        module: 'exchange',
        kind: swap.kind === 'FLASH' ? 'flashExchange' : 'swap',
        asset: `${swap.from}→${swap.to}`,
        amount: swap.fromAmount,
        status: 'executed',
      })),
    ]
      .sort((a, b) => b.at.getTime() - a.at.getTime())
      .slice(0, USER_PAGE_HISTORY_MAX)
      .map((item) => ({ ...item, at: item.at.toISOString() }));

    return {
      ...this.toRow(view, names.get(view.userId) ?? null),
      frozenReason: view.frozenReason,
      frozenAt: iso(view.frozenAt),
      hasTotp: view.hasTotp,
      withdrawHoldUntil: iso(view.withdrawHoldUntil),
      verification: verification.map((step) => ({ ...step, decidedAt: iso(step.decidedAt) })),
      balances: [...byAsset.entries()]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([asset, line]) => ({
          asset,
          available: decimalOf(line.available, asset),
          frozen: decimalOf(line.frozen, asset),
        })),
      sessions: view.sessions.map((session) => ({
        id: session.id,
        createdAt: session.createdAt.toISOString(),
        lastSeenAt: iso(session.lastSeenAt),
        ip: session.ip,
      })),
      history,
      messages: messages.list.map((message) => ({ at: message.createTime, title: message.title })),
      notes,
    };
  }

  /**
   * `POST admin/users/:userId/freeze` (compliance): the account stops moving money (withdrawals,
   * swaps: ACCOUNT_FROZEN 152) but can sign in and read; the user is messaged.
   * @throws DomainError NOT_FOUND, CONFLICT (121) when already frozen.
   */
  async freeze(operator: ActingOperator, userId: string, reason: string): Promise<UserChange> {
    const before = await this.deps.identity.operatorViewOf(userId);
    await this.deps.identity.freezeAccount(before.userId, reason, this.actorOf(operator));
    await this.message(before.userId, NOTICES.frozen);
    const detail = await this.show(before.userId);
    return { before: { isFrozen: before.isFrozen }, after: { isFrozen: true, frozenReason: reason }, detail };
  }

  /**
   * `POST admin/users/:userId/unfreeze` (compliance); the user is messaged.
   * @throws DomainError NOT_FOUND, CONFLICT (121) when not frozen.
   */
  async unfreeze(operator: ActingOperator, userId: string, reason: string): Promise<UserChange> {
    const before = await this.deps.identity.operatorViewOf(userId);
    await this.deps.identity.unfreezeAccount(before.userId, reason, this.actorOf(operator));
    await this.message(before.userId, NOTICES.unfrozen);
    const detail = await this.show(before.userId);
    return {
      before: { isFrozen: before.isFrozen, frozenReason: before.frozenReason },
      after: { isFrozen: false },
      detail,
    };
  }

  /**
   * `POST admin/users/:userId/reset-2fa` (support): remove the user's authenticator; withdrawals
   * are held 24 hours; nothing else (sessions, password, other factors) changes. The user is messaged.
   * @throws DomainError NOT_FOUND, CONFLICT (121) when the user has no authenticator.
   */
  async resetTotp(operator: ActingOperator, userId: string, reason: string): Promise<UserChange> {
    const before = await this.deps.identity.operatorViewOf(userId);
    await this.deps.identity.resetTotpByOperator(before.userId, reason, this.actorOf(operator));
    await this.message(before.userId, NOTICES.totpReset);
    const detail = await this.show(before.userId);
    return {
      before: { hasTotp: before.hasTotp, withdrawHoldUntil: iso(before.withdrawHoldUntil) },
      after: { hasTotp: detail.hasTotp, withdrawHoldUntil: detail.withdrawHoldUntil },
      detail,
    };
  }

  /** `POST admin/users/:userId/notes` (any operator): append a note. @throws DomainError NOT_FOUND. */
  async addNote(operator: ActingOperator, userId: string, text: string): Promise<UserNote> {
    const view = await this.deps.identity.operatorViewOf(userId);
    const [row] = await this.deps.db
      .insert(userNotes)
      .values({ userId: view.userId, operatorId: operator.id, operatorEmail: operator.email, text })
      .returning();
    return { id: row!.id, at: row!.createdAt.toISOString(), operatorEmail: row!.operatorEmail, text: row!.text };
  }

  /** The user's notes, newest first, at most `USER_PAGE_HISTORY_MAX`. */
  private async notesOf(userId: string): Promise<UserNote[]> {
    const rows = await this.deps.db
      .select()
      .from(userNotes)
      .where(eq(userNotes.userId, userId))
      .orderBy(desc(userNotes.createdAt), desc(userNotes.id))
      .limit(USER_PAGE_HISTORY_MAX);
    return rows.map((row) => ({
      id: row.id,
      at: row.createdAt.toISOString(),
      operatorEmail: row.operatorEmail,
      text: row.text,
    }));
  }

  private toRow(row: OperatorUserRow, name: string | null): UserRow {
    return {
      userId: row.userId,
      email: row.email,
      name,
      phone: row.phone,
      kycLevel: row.kycLevel,
      isFrozen: row.isFrozen,
      createdAt: row.createdAt.toISOString(),
    };
  }

  private actorOf(operator: ActingOperator): OperatorActor {
    return { email: operator.email, ip: operator.ip };
  }

  /** Message the user after the change committed; a failure is logged, the change stands. */
  private async message(userId: string, notice: Omit<NotifyInput, 'userId'>): Promise<void> {
    try {
      await this.deps.notices.notify({ ...notice, userId });
    } catch (error) {
      this.deps.log?.warn({ err: error, userId }, 'back-office message to the user failed');
    }
  }
}
