import type { AmountMinor } from '@meridian/contracts/money';
import type { Response as InjectResponse } from 'light-my-request';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import {
  createTestApp,
  randomTestIp,
  readLatestCode,
  registerAndLogin,
  type TestApp,
  type TestSession,
} from '../../../test/helpers.ts';
import { type ManualClock, manualClock } from '../../platform/clock/clock.ts';
import { getHongKongCalendar } from '../../platform/calendar/business-calendar.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { accountBalance, postEntry } from '../ledger/ledger.service.ts';
import { type AccountRef, platformAccount, transfer, userAccount } from '../ledger/ledger.types.ts';
import { DEFAULT_RECEIVING_ACCOUNT } from './funds.module.ts';
import { createFundsService, type FundsService } from './funds.service.ts';
import type { BankAccountLookup, StablecoinPar } from './funds.types.ts';

/** A clock the test sets by hand (Hong Kong wall-clock instants, e.g. `2026-01-30T10:00:00+08:00`). */
export type TestClock = ManualClock;
export const testClock = manualClock;

/** The funds API tests' harness: the real app on a fresh database with a hand-set clock. */
export interface FundsKit {
  t: TestApp;
  clock: TestClock;
  financeToken: string;
  supportToken: string;
  /** A registered user at identity level 2 (investor): funds are open to them. */
  investor(): Promise<TestSession>;
  /** Give a user `amountMinor` of a stablecoin in the wallet (the demo funding account pays). */
  fundWallet(userId: string, coin: 'USDT' | 'USDC' | 'USDE', amountMinor: bigint): Promise<void>;
  /** `POST fund/v2/subscribe` with a fresh PURCHASE email code. */
  subscribe(session: TestSession, body: object, headers?: Record<string, string>): Promise<InjectResponse>;
  /** `POST fund/v2/redeem` with a fresh REDEEM email code. */
  redeem(session: TestSession, body: object, headers?: Record<string, string>): Promise<InjectResponse>;
  get(session: TestSession, url: string, locale?: string): Promise<InjectResponse>;
  /** An operator call under `/api/admin` with a bearer token. */
  ops(token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object): Promise<InjectResponse>;
  /** Set the clock and run the funds' daily job as the scheduler's leader would (outside its transaction). */
  runDailyAt(iso: string): Promise<void>;
  /** A second funds service on the same database, with its own bank accounts and par (fakes). */
  serviceWith(options: { bankAccounts?: BankAccountLookup; par?: StablecoinPar; db?: DbOrTx }): FundsService;
  close(): Promise<void>;
}

/** A user's balance of an account type in USD cents or coin minor units. */
export function balanceOf(kit: FundsKit, ref: AccountRef): Promise<bigint> {
  return accountBalance(kit.t.database.db, ref);
}

/** The USD shares of the user's current fund (ledger USER_FUND). */
export const fundSharesOf = (kit: FundsKit, userId: string) => balanceOf(kit, userAccount(userId, 'USER_FUND', 'USD'));

/** Cast a test amount to the parsed type the service takes. */
export const minor = (value: bigint) => value as AmountMinor;

/**
 * The funds' own invariants beside the ledger's: every current holding's shares equal the user's
 * USER_FUND balance, the fixed principal held equals USER_FUND_FIXED, and the accrued-interest
 * liability equals the unpaid interest of the holdings.
 */
export async function expectFundsConsistent(db: DbOrTx): Promise<void> {
  const [row] = await queryRows<{
    shares: string;
    fund: string;
    fixed: string;
    fund_fixed: string;
    unsettled: string;
    accrued: string;
  }>(
    db,
    sql`SELECT
      (SELECT coalesce(sum(shares_minor), 0)::text FROM fund_holdings WHERE kind = 'CURRENT') AS shares,
      (SELECT coalesce(sum(balance_minor), 0)::text FROM ledger_accounts WHERE type = 'USER_FUND' AND asset = 'USD') AS fund,
      (SELECT coalesce(sum(shares_minor), 0)::text FROM fund_holdings WHERE kind = 'FIXED' AND status = 'HOLDING') AS fixed,
      (SELECT coalesce(sum(balance_minor), 0)::text FROM ledger_accounts WHERE type = 'USER_FUND_FIXED') AS fund_fixed,
      (SELECT coalesce(sum(unsettled_minor), 0)::text FROM fund_holdings) AS unsettled,
      (SELECT coalesce(sum(balance_minor), 0)::text FROM ledger_accounts WHERE type = 'PLATFORM_FUND_ACCRUED_INTEREST') AS accrued`,
  );
  expect(row?.shares).toBe(row?.fund);
  expect(row?.fixed).toBe(row?.fund_fixed);
  expect(row?.unsettled).toBe(row?.accrued);
  // Sub-cent accrual (decision 0008): per holding, the cents credited (paid + unpaid) are the whole
  // cents of its exact accruals and the carry is the rest, below one cent.
  const holdings = await queryRows<{
    id: string;
    credited: string;
    accrued_minor: string;
    accrued_e8: string;
    carry: string;
  }>(
    db,
    sql`SELECT h.id::text, (h.unsettled_minor + h.paid_minor)::text AS credited, h.interest_carry_e8::text AS carry,
          coalesce(sum(a.amount_minor), 0)::text AS accrued_minor, coalesce(sum(a.amount_e8), 0)::text AS accrued_e8
        FROM fund_holdings h LEFT JOIN fund_accruals a ON a.holding_id = h.id
        GROUP BY h.id HAVING bool_and(a.amount_e8 IS NOT NULL) OR count(a.holding_id) = 0`,
  );
  for (const holding of holdings) {
    const e8 = BigInt(holding.accrued_e8);
    expect({ id: holding.id, credited: holding.credited, carry: holding.carry }).toEqual({
      id: holding.id,
      credited: holding.accrued_minor,
      carry: (e8 % 1_000_000n).toString(),
    });
    expect(BigInt(holding.accrued_minor)).toBe(e8 / 1_000_000n);
  }
}

/** Build the harness (one per test file, in `beforeAll`), its clock at `startIso`. */
export async function createFundsKit(startIso: string): Promise<FundsKit> {
  const clock = testClock(startIso);
  const t = await createTestApp({ clock });
  const financeToken = (await t.app.admin.createOperator('finance@example.com', 'finance')).token;
  const supportToken = (await t.app.admin.createOperator('support@example.com', 'support')).token;
  const post = async (
    session: TestSession,
    url: string,
    event: string,
    body: object,
    headers: Record<string, string>,
  ) => {
    // One code per (address, event) per 59 s: date the last one back so the next request can ask again.
    await t.database.db.execute(
      sql`UPDATE verification_codes SET created_at = created_at - interval '2 minutes' WHERE address = ${session.email}`,
    );
    // From a fresh address each time, so the per-IP limit on code requests does not add up over a file.
    const remoteAddress = randomTestIp();
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/user/captcha',
      headers: session.headers,
      payload: { event },
      remoteAddress,
    });
    expect(sent.json().statusCode).toBe(200);
    const emailCaptcha = await readLatestCode(t.app, session.email, event);
    return t.app.inject({
      method: 'POST',
      url,
      headers: { ...session.headers, ...headers },
      payload: { emailCaptcha, ...body },
      remoteAddress,
    });
  };
  const kit: FundsKit = {
    t,
    clock,
    financeToken,
    supportToken,
    investor: async () => {
      const session = await registerAndLogin(t.app);
      await t.app.identity.setKycLevel(session.userId, 2);
      return session;
    },
    fundWallet: async (userId, coin, amountMinor) => {
      await postEntry(t.database.db, {
        kind: 'DEMO_FUNDING',
        reference: `test-funding:${userId}`,
        idempotencyKey: `test-funding:${userId}:${coin}:${amountMinor}:${Math.random()}`,
        postings: transfer(
          platformAccount('PLATFORM_DEMO_FUNDING', coin),
          userAccount(userId, 'USER_AVAILABLE', coin),
          amountMinor,
        ),
      });
    },
    subscribe: (session, body, headers = {}) => post(session, '/api/fund/v2/subscribe', 'PURCHASE', body, headers),
    redeem: (session, body, headers = {}) => post(session, '/api/fund/v2/redeem', 'REDEEM', body, headers),
    get: (session, url, locale = 'en-US') =>
      t.app.inject({ method: 'GET', url, headers: { cookie: session.cookie, 'user-lang': locale } }),
    ops: (token, method, url, payload) =>
      t.app.inject({
        method,
        url: `/api/admin${url}`,
        headers: { authorization: `Bearer ${token}`, ...(payload ? { 'content-type': 'application/json' } : {}) },
        ...(payload ? { payload } : {}),
      }),
    runDailyAt: async (iso) => {
      clock.set(iso);
      await t.app.funds.runDaily();
    },
    serviceWith: (options) =>
      createFundsService({
        db: (options.db ?? t.database.db) as typeof t.database.db,
        clock,
        calendar: getHongKongCalendar(),
        bankAccounts: options.bankAccounts ?? { findBankAccount: async () => null },
        par: options.par ?? { isAtPar: async () => true },
        identity: { assertNotFrozen: (userId, db) => t.app.identity.assertNotFrozen(userId, db) },
        notifier: {
          orderPlaced: async () => {},
          fixedMatured: async () => {},
          wireCredited: async () => {},
          wireDecided: async () => {},
        },
        receivingAccount: DEFAULT_RECEIVING_ACCOUNT,
        log: { info: () => {}, warn: () => {} },
      }),
    close: () => t.close(),
  };
  return kit;
}
