import { AssertionError } from 'node:assert';
import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import type { Db } from '../../platform/db/client.ts';
import { queryRows } from '../../platform/db/rows.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { checkLedgerInvariants } from './ledger.invariants.ts';
import {
  accountBalance,
  LedgerBatchKeyTakenError,
  ledgerHoldingsChecker,
  platformBalance,
  postEntries,
  postEntry,
  postFanout,
  reverseEntry,
  userBalances,
  userHoldings,
} from './ledger.service.ts';
import { ledgerAccounts, ledgerEntries, ledgerPostings } from './ledger.tables.ts';
import {
  type EntryInput,
  isPlatformOwnerId,
  platformAccount,
  type PostResult,
  transfer,
  userAccount,
} from './ledger.types.ts';

/**
 * The ledger's posting function on a real database (PGlite, and PostgreSQL with TEST_DATABASE_URL):
 * balanced entries, no user account below zero, idempotency with a request hash, reversals, and
 * concurrent postings that stay exact. Amounts are USDT minor units (6 decimals).
 */
const HOT = platformAccount('PLATFORM_HOT_WALLET', 'USDT');

async function fund(db: Db, userId: string, amountMinor: bigint, key: string) {
  return postEntry(db, {
    kind: 'DEPOSIT',
    reference: `test:${key}`,
    idempotencyKey: key,
    postings: transfer(HOT, userAccount(userId, 'USER_AVAILABLE', 'USDT'), amountMinor),
  });
}

/** The SQLSTATE of the database error `promise` rejects with (Drizzle wraps the driver's error), or 'OK'. */
async function sqlStateOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'OK';
  } catch (error) {
    for (let current: unknown = error; current; current = (current as { cause?: unknown }).cause) {
      const code = (current as { code?: unknown }).code;
      if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    }
    throw error;
  }
}

async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
    return 'OK';
  } catch (error) {
    if (error instanceof DomainError) return error.code;
    throw error;
  }
}

describe('ledger posting function', () => {
  let t: TestApp;
  let db: Db;
  beforeAll(async () => {
    t = await createTestApp();
    db = t.database.db;
  });
  afterAll(async () => t.close());

  it('posts a deposit: the user gains exactly what the hot wallet gives, both accounts created lazily', async () => {
    const { entry, isReplay } = await fund(db, 'alice', 250_000_000n, 'dep-1');
    expect(isReplay).toBe(false);
    expect(entry.postings.map((p) => p.amountMinor)).toEqual([-250_000_000n, 250_000_000n]);
    expect(await accountBalance(db, userAccount('alice', 'USER_AVAILABLE', 'USDT'))).toBe(250_000_000n);
    expect(await accountBalance(db, HOT)).toBe(-250_000_000n);
    expect(await userBalances(db, 'alice')).toEqual([
      { type: 'USER_AVAILABLE', asset: 'USDT', balanceMinor: 250_000_000n },
    ]);
  });

  it('refuses postings that do not sum to zero per asset, storing nothing', async () => {
    const before = await db.select({ n: sql<string>`count(*)` }).from(ledgerEntries);
    await expect(
      postEntry(db, {
        kind: 'ADJUSTMENT',
        reference: 'bad',
        idempotencyKey: 'bad-1',
        postings: [
          { account: userAccount('alice', 'USER_AVAILABLE', 'USDT'), amountMinor: -1n },
          { account: userAccount('bob', 'USER_AVAILABLE', 'USDC'), amountMinor: 1n },
        ],
      }),
    ).rejects.toBeInstanceOf(AssertionError);
    await expect(
      postEntry(db, {
        kind: 'ADJUSTMENT',
        reference: 'bad',
        idempotencyKey: 'bad-2',
        postings: transfer(HOT, userAccount('a', 'USER_AVAILABLE', 'USDT'), 0n),
      }),
    ).rejects.toBeInstanceOf(AssertionError);
    expect(await db.select({ n: sql<string>`count(*)` }).from(ledgerEntries)).toEqual(before);
  });

  it('refuses to take a user below zero with INSUFFICIENT_BALANCE (130): nothing moves and the key stays free', async () => {
    const alice = userAccount('alice', 'USER_AVAILABLE', 'USDT');
    const bob = userAccount('bob', 'USER_AVAILABLE', 'USDT');
    const attempt = () =>
      postEntry(db, {
        kind: 'INTERNAL_TRANSFER',
        reference: 'x',
        idempotencyKey: 'too-much',
        postings: transfer(alice, bob, 250_000_001n),
      });
    expect(await codeOf(attempt())).toBe('INSUFFICIENT_BALANCE');
    expect(await accountBalance(db, alice)).toBe(250_000_000n);
    expect(await accountBalance(db, bob)).toBe(0n);
    expect(await db.select().from(ledgerEntries).where(eq(ledgerEntries.idempotencyKey, 'too-much'))).toEqual([]);
    // The refused statement is undone whole: not even bob's first account row was left behind.
    expect(await db.select().from(ledgerAccounts).where(eq(ledgerAccounts.ownerId, 'bob'))).toEqual([]);
    // Exactly the whole balance is allowed.
    const exact = await postEntry(db, {
      kind: 'INTERNAL_TRANSFER',
      reference: 'x',
      idempotencyKey: 'exact',
      postings: transfer(alice, bob, 250_000_000n),
    });
    expect(exact.isReplay).toBe(false);
    expect(await accountBalance(db, alice)).toBe(0n);
    expect(await accountBalance(db, bob)).toBe(250_000_000n);
  });

  it('replays the same key and request without moving money, and refuses the same key with another request (121)', async () => {
    const first = await fund(db, 'carol', 10_000_000n, 'dep-carol');
    const again = await fund(db, 'carol', 10_000_000n, 'dep-carol');
    expect(again.isReplay).toBe(true);
    expect(again.entry.id).toBe(first.entry.id);
    expect(again.entry.postings).toEqual(first.entry.postings);
    expect(await accountBalance(db, userAccount('carol', 'USER_AVAILABLE', 'USDT'))).toBe(10_000_000n);
    expect(await codeOf(fund(db, 'carol', 10_000_001n, 'dep-carol'))).toBe('CONFLICT');
    expect(await accountBalance(db, userAccount('carol', 'USER_AVAILABLE', 'USDT'))).toBe(10_000_000n);
  });

  it('corrects by reversal only: the opposite entry, at most once, refused when the user already spent it', async () => {
    const { entry } = await fund(db, 'dave', 5_000_000n, 'dep-dave');
    const reversal = await reverseEntry(db, entry.id);
    expect(reversal.entry.kind).toBe('REVERSAL');
    expect(reversal.entry.reversesEntryId).toBe(entry.id);
    expect(reversal.entry.postings.map((p) => p.amountMinor)).toEqual([5_000_000n, -5_000_000n]);
    expect(await accountBalance(db, userAccount('dave', 'USER_AVAILABLE', 'USDT'))).toBe(0n);
    expect((await reverseEntry(db, entry.id)).isReplay).toBe(true);
    expect(await codeOf(reverseEntry(db, entry.id, { idempotencyKey: 'other-key' }))).toBe('CONFLICT');
    expect(await codeOf(reverseEntry(db, 999_999))).toBe('NOT_FOUND');

    const spent = await fund(db, 'dave', 3_000_000n, 'dep-dave-2');
    await postEntry(db, {
      kind: 'INTERNAL_TRANSFER',
      reference: 'x',
      idempotencyKey: 'dave-spends',
      postings: transfer(
        userAccount('dave', 'USER_AVAILABLE', 'USDT'),
        userAccount('erin', 'USER_AVAILABLE', 'USDT'),
        1n,
      ),
    });
    expect(await codeOf(reverseEntry(db, spent.entry.id))).toBe('INSUFFICIENT_BALANCE');
    expect(await accountBalance(db, userAccount('dave', 'USER_AVAILABLE', 'USDT'))).toBe(2_999_999n);
  });

  it('lets 100 concurrent debits of 7 USDT on a 500 USDT balance take exactly 71, never below zero', async () => {
    await fund(db, 'frank', 500_000_000n, 'dep-frank');
    const frank = userAccount('frank', 'USER_AVAILABLE', 'USDT');
    const outcomes = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        codeOf(
          postEntry(db, {
            kind: 'INTERNAL_TRANSFER',
            reference: 'burst',
            idempotencyKey: `burst-${i}`,
            postings: transfer(frank, userAccount(`sink-${i % 7}`, 'USER_AVAILABLE', 'USDT'), 7_000_000n),
          }),
        ),
      ),
    );
    expect(outcomes.filter((o) => o === 'OK')).toHaveLength(71);
    expect(outcomes.filter((o) => o === 'INSUFFICIENT_BALANCE')).toHaveLength(29);
    expect(await accountBalance(db, frank)).toBe(3_000_000n);
    let sinks = 0n;
    for (let i = 0; i < 7; i += 1)
      sinks += await accountBalance(db, userAccount(`sink-${i}`, 'USER_AVAILABLE', 'USDT'));
    expect(sinks).toBe(497_000_000n);
  });

  it('posts one entry when the same key arrives 20 times concurrently', async () => {
    const results = await Promise.all(Array.from({ length: 20 }, () => fund(db, 'gina', 1_000_000n, 'dep-gina-once')));
    expect(results.filter((r) => !r.isReplay)).toHaveLength(1);
    expect(new Set(results.map((r) => r.entry.id)).size).toBe(1);
    expect(await accountBalance(db, userAccount('gina', 'USER_AVAILABLE', 'USDT'))).toBe(1_000_000n);
    expect(await db.select().from(ledgerEntries).where(eq(ledgerEntries.idempotencyKey, 'dep-gina-once'))).toHaveLength(
      1,
    );
  });

  it('does not deadlock on opposite transfers between the same two accounts, and conserves the total', async () => {
    await fund(db, 'hank', 100_000_000n, 'dep-hank');
    await fund(db, 'ivy', 100_000_000n, 'dep-ivy');
    const hank = userAccount('hank', 'USER_AVAILABLE', 'USDT');
    const ivy = userAccount('ivy', 'USER_AVAILABLE', 'USDT');
    await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        postEntry(db, {
          kind: 'INTERNAL_TRANSFER',
          reference: 'pingpong',
          idempotencyKey: `pp-${i}`,
          postings: i % 2 === 0 ? transfer(hank, ivy, 1_000_000n) : transfer(ivy, hank, 1_000_000n),
        }),
      ),
    );
    expect(await accountBalance(db, hank)).toBe(100_000_000n);
    expect(await accountBalance(db, ivy)).toBe(100_000_000n);
  });

  it('checks the three invariants and reports a tampered balance, then holds again once repaired', async () => {
    expect((await checkLedgerInvariants(db)).isHeld).toBe(true);
    const [account] = await db.select().from(ledgerAccounts).where(eq(ledgerAccounts.ownerId, 'ivy'));
    await db
      .update(ledgerAccounts)
      .set({ balanceMinor: sql`${ledgerAccounts.balanceMinor} + 1` })
      .where(eq(ledgerAccounts.id, account!.id));
    const report = await checkLedgerInvariants(db);
    expect(report.isHeld).toBe(false);
    expect(report.results.find((r) => r.name === 'balances-equal-postings')).toMatchObject({
      isHeld: false,
      violationCount: 1,
    });
    await db
      .update(ledgerAccounts)
      .set({ balanceMinor: sql`${ledgerAccounts.balanceMinor} - 1` })
      .where(eq(ledgerAccounts.id, account!.id));
    expect((await checkLedgerInvariants(db)).isHeld).toBe(true);
  });

  it('refuses a negative user balance at the database level too (CHECK constraint)', async () => {
    const [account] = await db.select().from(ledgerAccounts).where(eq(ledgerAccounts.ownerId, 'alice'));
    await expect(
      db.update(ledgerAccounts).set({ balanceMinor: -1n }).where(eq(ledgerAccounts.id, account!.id)),
    ).rejects.toThrow();
  });

  it('refuses a posting whose entry or account does not exist (checked once per INSERT statement), and deleting, truncating or renumbering what postings reference', async () => {
    const [account] = await db.select().from(ledgerAccounts).where(eq(ledgerAccounts.ownerId, 'alice'));
    const [posting] = await db.select().from(ledgerPostings).where(eq(ledgerPostings.accountId, account!.id)).limit(1);
    const entryId = posting!.entryId;
    const missing = 9_000_000_000;
    const insert = (rows: [number, number][]) =>
      db.execute(
        sql`INSERT INTO ledger_postings (entry_id, account_id, asset, amount_minor) VALUES ${sql.join(
          rows.map(([entry, accountId]) => sql`(${entry}, ${accountId}, 'USDT', 1)`),
          sql`, `,
        )}`,
      );
    const before = await checkLedgerInvariants(db);
    // 23503 foreign_key_violation, as the foreign keys it replaced; one bad row refuses the statement.
    expect(await sqlStateOf(insert([[missing, account!.id]]))).toBe('23503');
    expect(await sqlStateOf(insert([[entryId, missing]]))).toBe('23503');
    expect(
      await sqlStateOf(
        insert([
          [entryId, account!.id],
          [entryId, missing],
        ]),
      ),
    ).toBe('23503');
    // 23001 restrict_violation: ledger rows are never deleted and references never change.
    expect(await sqlStateOf(db.execute(sql`DELETE FROM ledger_entries WHERE id = ${entryId}`))).toBe('23001');
    expect(await sqlStateOf(db.execute(sql`DELETE FROM ledger_accounts WHERE id = ${account!.id}`))).toBe('23001');
    expect(await sqlStateOf(db.execute(sql`UPDATE ledger_accounts SET id = id WHERE id = ${account!.id}`))).toBe(
      '23001',
    );
    // Since 0054 per statement (no lock per balance update): refused whatever rows it matches, and
    // through INSERT … ON CONFLICT DO UPDATE too.
    expect(await sqlStateOf(db.execute(sql`UPDATE ledger_accounts SET id = id WHERE false`))).toBe('23001');
    expect(
      await sqlStateOf(
        db.execute(
          sql`INSERT INTO ledger_accounts (owner_kind, owner_id, type, asset, is_negative_allowed)
              SELECT owner_kind, owner_id, type, asset, is_negative_allowed FROM ledger_accounts WHERE id = ${account!.id}
              ON CONFLICT (owner_kind, owner_id, type, asset) DO UPDATE SET id = excluded.id`,
        ),
      ),
    ).toBe('23001');
    expect(await sqlStateOf(db.execute(sql`UPDATE ledger_entries SET id = id WHERE id = ${entryId}`))).toBe('23001');
    expect(
      await sqlStateOf(db.execute(sql`UPDATE ledger_postings SET account_id = account_id WHERE id = ${posting!.id}`)),
    ).toBe('23001');
    expect(await sqlStateOf(db.execute(sql`TRUNCATE ledger_entries CASCADE`))).toBe('23001');
    const after = await checkLedgerInvariants(db);
    expect(after).toEqual(before);
    expect(after.results.find((r) => r.name === 'posting-references-exist')).toMatchObject({ isHeld: true });
  });

  it('skips the reference check only inside ledger_post: a posting written after it, in its transaction, is still checked', async () => {
    const [account] = await db.select().from(ledgerAccounts).where(eq(ledgerAccounts.ownerId, 'alice'));
    const missing = 9_000_000_001;
    const before = await checkLedgerInvariants(db);
    const afterPosting = (key: string, row: (entryId: number) => [number, number]) =>
      db.transaction(async (tx) => {
        const { entry } = await postEntry(tx, {
          kind: 'DEPOSIT',
          reference: 'refs-after-post',
          idempotencyKey: key,
          postings: transfer(HOT, userAccount('refs-after-post', 'USER_AVAILABLE', 'USDT'), 1n),
        });
        // ledger_post's SET clause turned the marker on for its own call only.
        const [marker] = await queryRows<{ value: string | null }>(
          tx,
          sql`SELECT current_setting('ledger.refs_proven', true) AS value`,
        );
        expect(marker!.value === 'on').toBe(false);
        const [entryId, accountId] = row(entry.id);
        await tx.execute(
          sql`INSERT INTO ledger_postings (entry_id, account_id, asset, amount_minor) VALUES (${entryId}, ${accountId}, 'USDT', 1)`,
        );
      });
    expect(await sqlStateOf(afterPosting('refs-after-post-1', (entryId) => [entryId, missing]))).toBe('23503');
    expect(await sqlStateOf(afterPosting('refs-after-post-2', () => [missing, account!.id]))).toBe('23503');
    // The refused statement took the whole transaction, the posting made through ledger_post included.
    expect(await accountBalance(db, userAccount('refs-after-post', 'USER_AVAILABLE', 'USDT'))).toBe(0n);
    expect(await checkLedgerInvariants(db)).toEqual(before);
  });

  it('aborts the caller’s transaction on a refusal, so the caller’s own writes roll back with it', async () => {
    const payer = userAccount('tx-payer', 'USER_AVAILABLE', 'USDT');
    await fund(db, 'tx-payer', 5n, 'tx-payer-fund');
    const outcome = await codeOf(
      db.transaction(async (tx) => {
        await postEntry(tx, {
          kind: 'INTERNAL_TRANSFER',
          reference: 'x',
          idempotencyKey: 'tx-payer-ok',
          postings: transfer(payer, userAccount('tx-payee', 'USER_AVAILABLE', 'USDT'), 5n),
        });
        await postEntry(tx, {
          kind: 'INTERNAL_TRANSFER',
          reference: 'x',
          idempotencyKey: 'tx-payer-over',
          postings: transfer(payer, userAccount('tx-payee', 'USER_AVAILABLE', 'USDT'), 1n),
        });
      }),
    );
    expect(outcome).toBe('INSUFFICIENT_BALANCE');
    expect(await accountBalance(db, payer)).toBe(5n);
    expect(await db.select().from(ledgerEntries).where(eq(ledgerEntries.idempotencyKey, 'tx-payer-ok'))).toEqual([]);
  });

  it('splits a platform account into shards whose balances add up, and refuses a shard out of range', async () => {
    const before = await platformBalance(db, 'EXCHANGE_INVENTORY', 'USDC');
    for (const shard of [0, 3, 63]) {
      await postEntry(db, {
        kind: 'ADJUSTMENT',
        reference: 'shards',
        idempotencyKey: `shard-${shard}`,
        postings: transfer(
          platformAccount('PLATFORM_HOT_WALLET', 'USDC'),
          platformAccount('EXCHANGE_INVENTORY', 'USDC', shard),
          BigInt(shard + 1),
        ),
      });
    }
    expect(platformAccount('EXCHANGE_INVENTORY', 'USDC', 3).ownerId).toBe('platform:3');
    expect(await accountBalance(db, platformAccount('EXCHANGE_INVENTORY', 'USDC', 63))).toBe(64n);
    expect(await platformBalance(db, 'EXCHANGE_INVENTORY', 'USDC')).toBe(before + 1n + 4n + 64n);
    expect(() => platformAccount('EXCHANGE_INVENTORY', 'USDC', 64)).toThrow(RangeError);
    expect(isPlatformOwnerId('platform:07')).toBe(false);
    expect(isPlatformOwnerId('platform:64')).toBe(false);
  });

  it('lists a user’s holdings for account deletion: only non-zero balances', async () => {
    expect(await userHoldings(db, 'alice')).toEqual([]);
    expect(await userHoldings(db, 'bob')).toEqual([
      { type: 'USER_AVAILABLE', asset: 'USDT', balanceMinor: 250_000_000n },
    ]);
    expect(await ledgerHoldingsChecker(db).reasonsToRefuseClosure('bob', 'en-US')).toEqual([
      'USDT 250.000000 (USER_AVAILABLE)',
    ]);
    expect(await ledgerHoldingsChecker(db).reasonsToRefuseClosure('alice', 'en-US')).toEqual([]);
    const postingCount = await db.select({ n: sql<string>`count(*)` }).from(ledgerPostings);
    expect(Number(postingCount[0]!.n)).toBeGreaterThan(0);
  });
});

describe('ledger batch posting (postEntries)', () => {
  let t: TestApp;
  let db: Db;
  beforeAll(async () => {
    t = await createTestApp();
    db = t.database.db;
  });
  afterAll(async () => {
    expect((await checkLedgerInvariants(db)).isHeld).toBe(true);
    await t.close();
  });

  const pay = (payer: string, payee: string, amountMinor: bigint, key: string): EntryInput => ({
    kind: 'INTERNAL_TRANSFER',
    reference: `batch:${key}`,
    idempotencyKey: key,
    postings: transfer(
      userAccount(payer, 'USER_AVAILABLE', 'USDT'),
      userAccount(payee, 'USER_AVAILABLE', 'USDT'),
      amountMinor,
    ),
    metadata: { key },
  });
  const outcome = (result: PostResult | DomainError) =>
    result instanceof DomainError ? result.code : result.isReplay ? 'REPLAY' : 'OK';

  it('applies entries in order over running balances: a later entry sees an earlier credit, an unfunded one alone is refused', async () => {
    await fund(db, 'b-ann', 10n, 'b-ann-fund');
    const results = await postEntries(db, [
      pay('b-ann', 'b-ben', 10n, 'b-1'), // ann 0, ben 10
      pay('b-ben', 'b-cid', 7n, 'b-2'), // funded by b-1: ben 3, cid 7
      pay('b-ben', 'b-cid', 4n, 'b-3'), // ben has 3: refused, nothing of it moves
      pay('b-cid', 'b-ann', 7n, 'b-4'), // cid 0, ann 7
    ]);
    expect(results.map(outcome)).toEqual(['OK', 'OK', 'INSUFFICIENT_BALANCE', 'OK']);
    expect(await accountBalance(db, userAccount('b-ann', 'USER_AVAILABLE', 'USDT'))).toBe(7n);
    expect(await accountBalance(db, userAccount('b-ben', 'USER_AVAILABLE', 'USDT'))).toBe(3n);
    expect(await accountBalance(db, userAccount('b-cid', 'USER_AVAILABLE', 'USDT'))).toBe(0n);
    expect(await db.select().from(ledgerEntries).where(eq(ledgerEntries.idempotencyKey, 'b-3'))).toEqual([]);
    // Entry ids ascend in batch order; the postings carry the real account ids.
    const [first, second, , fourth] = results as PostResult[];
    expect(first!.entry.id).toBeLessThan(second!.entry.id);
    expect(second!.entry.id).toBeLessThan(fourth!.entry.id);
    const [stored] = await db.select().from(ledgerEntries).where(eq(ledgerEntries.id, second!.entry.id));
    expect(stored).toMatchObject({
      idempotencyKey: 'b-2',
      metadata: { key: 'b-2' },
      requestHash: second!.entry.requestHash,
    });
    const postings = await db.select().from(ledgerPostings).where(eq(ledgerPostings.entryId, second!.entry.id));
    expect(postings.map((p) => [p.accountId, p.amountMinor])).toEqual(
      second!.entry.postings.map((p) => [p.accountId, p.amountMinor]),
    );
  });

  it('answers a used key per entry: a replay of the same request, a conflict for another, and posts the rest', async () => {
    await fund(db, 'b-dan', 100n, 'b-dan-fund');
    const [first] = await postEntries(db, [pay('b-dan', 'b-eve', 5n, 'b-5')]);
    const results = await postEntries(db, [
      pay('b-dan', 'b-eve', 5n, 'b-5'),
      pay('b-dan', 'b-eve', 6n, 'b-dan-fund'),
      pay('b-dan', 'b-eve', 1n, 'b-6'),
    ]);
    expect(results.map(outcome)).toEqual(['REPLAY', 'CONFLICT', 'OK']);
    expect((results[0] as PostResult).entry.id).toBe((first as PostResult).entry.id);
    expect(await accountBalance(db, userAccount('b-dan', 'USER_AVAILABLE', 'USDT'))).toBe(94n);
  });

  it('agrees with single postings when 20 batches race 60 single debits on one balance: never below zero, every unit accounted for', async () => {
    await fund(db, 'b-fay', 1_000n, 'b-fay-fund');
    const batches = Array.from({ length: 20 }, (_, b) =>
      postEntries(
        db,
        Array.from({ length: 3 }, (_, k) => pay('b-fay', `b-sink-${k}`, 9n, `b-race-${b}-${k}`)),
      ),
    );
    // Demand 20 × 3 × 9 + 60 × 11 = 1,200 > 1,000: some are refused, so what is left is below 11.
    const singles = Array.from({ length: 60 }, (_, i) =>
      codeOf(postEntry(db, pay('b-fay', 'b-sink-x', 11n, `b-single-${i}`))),
    );
    const [batchResults, singleResults] = await Promise.all([Promise.all(batches), Promise.all(singles)]);
    const batchOk = batchResults.flat().filter((r) => !(r instanceof DomainError)).length;
    const singleOk = singleResults.filter((r) => r === 'OK').length;
    const spent = BigInt(batchOk) * 9n + BigInt(singleOk) * 11n;
    const left = await accountBalance(db, userAccount('b-fay', 'USER_AVAILABLE', 'USDT'));
    expect(left).toBeGreaterThanOrEqual(0n);
    expect(left).toBeLessThan(11n);
    expect(spent + left).toBe(1_000n);
  });

  it('refuses malformed batches as programmer errors, writing nothing', async () => {
    await expect(postEntries(db, [])).rejects.toThrow(AssertionError);
    await expect(postEntries(db, [pay('x', 'y', 1n, 'b-dup'), pay('x', 'y', 1n, 'b-dup')])).rejects.toThrow(
      AssertionError,
    );
    expect(await db.select().from(ledgerEntries).where(eq(ledgerEntries.idempotencyKey, 'b-dup'))).toEqual([]);
  });
});

// Two open transactions need two connections: PostgreSQL only (PGlite runs one transaction at a time).
describe.runIf(process.env.MERIDIAN_TEST_DB === 'postgres')('ledger batch posting racing an uncommitted twin', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('raises LedgerBatchKeyTakenError and writes nothing when a key is committed by a twin while the batch waits', async () => {
    const db = t.database.db;
    await fund(db, 'twin-payer', 100n, 'twin-fund');
    const entry = (key: string, amountMinor: bigint): EntryInput => ({
      kind: 'INTERNAL_TRANSFER',
      reference: 'twin',
      idempotencyKey: key,
      postings: transfer(
        userAccount('twin-payer', 'USER_AVAILABLE', 'USDT'),
        userAccount('twin-payee', 'USER_AVAILABLE', 'USDT'),
        amountMinor,
      ),
    });
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let posted!: () => void;
    const twinPosted = new Promise<void>((resolve) => (posted = resolve));
    const twin = db.transaction(async (tx) => {
      await postEntry(tx, entry('twin-key', 3n));
      posted();
      await held;
    });
    await twinPosted;
    // The batch waits on the twin's key (and its accounts), then finds the key taken at its insert.
    const batch = postEntries(db, [entry('twin-other', 5n), entry('twin-key', 3n)]).then(
      () => 'posted',
      (error: unknown) => error,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    release();
    await twin;
    expect(await batch).toBeInstanceOf(LedgerBatchKeyTakenError);
    expect(await db.select().from(ledgerEntries).where(eq(ledgerEntries.idempotencyKey, 'twin-other'))).toEqual([]);
    expect(await accountBalance(db, userAccount('twin-payer', 'USER_AVAILABLE', 'USDT'))).toBe(97n);
  });
});

describe('ledger fanout posting (postFanout)', () => {
  let t: TestApp;
  let db: Db;
  beforeAll(async () => {
    t = await createTestApp();
    db = t.database.db;
  });
  afterAll(async () => {
    expect((await checkLedgerInvariants(db)).isHeld).toBe(true);
    await t.close();
  });

  const SOURCE = platformAccount('PLATFORM_FUND_ACCRUED_INTEREST', 'USD') as ReturnType<typeof platformAccount> & {
    ownerKind: 'platform';
  };
  /** A fanout of `rows` (VALUES: owner, amount, and the account's id where the caller knows it) under `key`, in its own transaction. */
  const fanout = (rows: [string, bigint, (number | null)?][], key: string) =>
    db.transaction((tx) =>
      postFanout(tx, {
        kind: 'FUND_INTEREST',
        reference: `fanout:${key}`,
        idempotencyKey: key,
        source: SOURCE,
        destinationType: 'USER_FUND',
        asset: 'USD',
        rows: sql`VALUES ${sql.join(
          rows.map(([owner, amount, id]) => sql`(${owner}, ${amount.toString()}::numeric, ${id ?? null}::bigint)`),
          sql`, `,
        )}`,
      }),
    );
  const fundOf = (userId: string) => accountBalance(db, userAccount(userId, 'USER_FUND', 'USD'));

  it('credits existing and missing accounts once each in one balanced entry; a replay moves nothing; other rows under the key are 121', async () => {
    await fanout([['f-ann', 5n]], 'f-0'); // f-ann's account exists before the next fanout
    const source0 = await accountBalance(db, SOURCE);
    const result = await fanout(
      [
        ['f-ann', 100n],
        ['f-ben', 250n],
        ['f-cid', 1n],
      ],
      'f-1',
    );
    expect(result).toMatchObject({ rowCount: 3, totalMinor: 351n, isReplay: false });
    expect([await fundOf('f-ann'), await fundOf('f-ben'), await fundOf('f-cid')]).toEqual([105n, 250n, 1n]);
    expect(await accountBalance(db, SOURCE)).toBe(source0 - 351n);
    const postings = await db.select().from(ledgerPostings).where(eq(ledgerPostings.entryId, result.entryId!));
    expect(postings).toHaveLength(4);
    expect(postings.reduce((sum, posting) => sum + posting.amountMinor, 0n)).toBe(0n);

    const replay = await fanout(
      [
        ['f-cid', 1n],
        ['f-ann', 100n],
        ['f-ben', 250n],
      ],
      'f-1',
    );
    expect(replay).toMatchObject({ entryId: result.entryId, isReplay: true });
    expect(await fundOf('f-ann')).toBe(105n);
    expect(await codeOf(fanout([['f-ann', 101n]], 'f-1'))).toBe('CONFLICT');
    expect(await fundOf('f-ann')).toBe(105n);
  });

  it('stores the documented request hash: SHA-256 of the request with the SHA-256 of the rows sorted by owner', async () => {
    const result = await fanout(
      [
        ['f-hb', 20n],
        ['f-ha', 7n],
      ],
      'f-hash',
    );
    const rowsHash = createHash('sha256').update('f-ha:7,f-hb:20').digest('hex');
    const expected = createHash('sha256')
      .update(
        JSON.stringify({
          kind: 'FUND_INTEREST',
          reference: 'fanout:f-hash',
          metadata: [],
          source: ['platform', SOURCE.ownerId, SOURCE.type, SOURCE.asset],
          destination: ['USER_FUND', 'USD'],
          rows: rowsHash,
        }),
      )
      .digest('hex');
    const [entry] = await db.select().from(ledgerEntries).where(eq(ledgerEntries.id, result.entryId!));
    expect(entry?.requestHash).toBe(expected);
  });

  it('runs a data-modifying rows statement once with the posting; a replay or a conflict undoes it; no rows claim nothing', async () => {
    await db.execute(
      sql`CREATE TABLE fanout_test_owed (owner_id text PRIMARY KEY, amount_minor numeric(38,0) NOT NULL, paid boolean NOT NULL DEFAULT false)`,
    );
    await db.execute(sql`INSERT INTO fanout_test_owed (owner_id, amount_minor) VALUES ('f-dan', 40), ('f-eve', 2)`);
    const payOwed = (key: string) =>
      db.transaction((tx) =>
        postFanout(tx, {
          kind: 'FUND_INTEREST',
          reference: 'fanout:owed',
          idempotencyKey: key,
          source: SOURCE,
          destinationType: 'USER_FUND',
          asset: 'USD',
          rows: sql`UPDATE fanout_test_owed SET paid = true WHERE NOT paid RETURNING owner_id, amount_minor, NULL::bigint`,
        }),
      );
    const paidOwners = async () =>
      (
        await queryRows<{ owner_id: string }>(
          db,
          sql`SELECT owner_id FROM fanout_test_owed WHERE paid ORDER BY owner_id`,
        )
      ).map((row) => row.owner_id);
    const source0 = await accountBalance(db, SOURCE);
    const first = await payOwed('f-owed');
    expect(first).toMatchObject({ rowCount: 2, totalMinor: 42n, isReplay: false });
    expect(await paidOwners()).toEqual(['f-dan', 'f-eve']);
    expect([await fundOf('f-dan'), await fundOf('f-eve')]).toEqual([40n, 2n]); // both accounts created
    expect(await accountBalance(db, SOURCE)).toBe(source0 - 42n);

    // Nothing owed: no entry, the key is not claimed.
    expect(await payOwed('f-owed-empty')).toEqual({ entryId: null, rowCount: 0, totalMinor: 0n, isReplay: false });
    expect(await db.select().from(ledgerEntries).where(eq(ledgerEntries.idempotencyKey, 'f-owed-empty'))).toEqual([]);

    // The same rows again under the same key: a replay; the marks it set are undone, nothing moves.
    await db.execute(sql`UPDATE fanout_test_owed SET paid = false`);
    expect(await payOwed('f-owed')).toEqual({ entryId: first.entryId, rowCount: 2, totalMinor: 42n, isReplay: true });
    expect(await paidOwners()).toEqual([]);
    // Other rows under the key: CONFLICT, undone too.
    await db.execute(sql`UPDATE fanout_test_owed SET amount_minor = 41 WHERE owner_id = 'f-dan'`);
    expect(await codeOf(payOwed('f-owed'))).toBe('CONFLICT');
    expect(await paidOwners()).toEqual([]);
    expect([await fundOf('f-dan'), await fundOf('f-eve')]).toEqual([40n, 2n]);
    expect(await accountBalance(db, SOURCE)).toBe(source0 - 42n);
    // The empty run's key is still free: rows under it post.
    expect(await payOwed('f-owed-empty')).toMatchObject({ rowCount: 2, totalMinor: 43n, isReplay: false });
    expect([await fundOf('f-dan'), await fundOf('f-eve')]).toEqual([81n, 4n]);
    await db.execute(sql`DROP TABLE fanout_test_owed`);
  });

  it("credits accounts given by id, mixed with accounts found by owner; refuses an id that is not the owner's account", async () => {
    await fanout(
      [
        ['f-hal', 1n],
        ['f-ida', 1n],
      ],
      'f-ids-0',
    );
    const idOf = async (userId: string) =>
      (
        await db
          .select({ id: ledgerAccounts.id })
          .from(ledgerAccounts)
          .where(sql`${ledgerAccounts.ownerId} = ${userId} AND ${ledgerAccounts.type} = 'USER_FUND'`)
      )[0]!.id;
    const [hal, ida] = [await idOf('f-hal'), await idOf('f-ida')];
    const source0 = await accountBalance(db, SOURCE);
    const result = await fanout(
      [
        ['f-hal', 10n, hal],
        ['f-ida', 20n, null],
        ['f-jon', 30n, null],
      ],
      'f-ids-1',
    );
    expect(result).toMatchObject({ rowCount: 3, totalMinor: 60n, isReplay: false });
    expect([await fundOf('f-hal'), await fundOf('f-ida'), await fundOf('f-jon')]).toEqual([11n, 21n, 30n]);
    expect(await accountBalance(db, SOURCE)).toBe(source0 - 60n);
    // ida's account id given for hal: refused, nothing moves.
    await expect(fanout([['f-hal', 5n, ida]], 'f-ids-2')).rejects.toBeInstanceOf(AssertionError);
    expect([await fundOf('f-hal'), await fundOf('f-ida')]).toEqual([11n, 21n]);
    expect(await db.select().from(ledgerEntries).where(eq(ledgerEntries.idempotencyKey, 'f-ids-2'))).toEqual([]);
  });

  it('refuses an owner listed twice or an amount that is not a positive whole number, changing nothing', async () => {
    await fanout([['f-fay', 1n]], 'f-fay-0');
    const source0 = await accountBalance(db, SOURCE);
    // Twice: an owner whose account exists (f-fay), and one whose account the fanout would create (f-gus).
    for (const owner of ['f-fay', 'f-gus'])
      await expect(
        fanout(
          [
            [owner, 3n],
            [owner, 4n],
          ],
          `${owner}-twice`,
        ),
      ).rejects.toBeInstanceOf(AssertionError);
    await expect(fanout([['f-fay', 0n]], 'f-zero')).rejects.toBeInstanceOf(AssertionError);
    await expect(
      db.transaction((tx) =>
        postFanout(tx, {
          kind: 'FUND_INTEREST',
          reference: 'fanout:fraction',
          idempotencyKey: 'f-fraction',
          source: SOURCE,
          destinationType: 'USER_FUND',
          asset: 'USD',
          rows: sql`VALUES ('f-fay', 1.5::numeric, NULL::bigint)`,
        }),
      ),
    ).rejects.toBeInstanceOf(AssertionError);
    expect(await fundOf('f-fay')).toBe(1n);
    expect(await accountBalance(db, SOURCE)).toBe(source0);
    expect(
      await db
        .select()
        .from(ledgerAccounts)
        .where(sql`${ledgerAccounts.ownerId} = 'f-gus'`),
    ).toEqual([]);
    for (const key of ['f-twice', 'f-twice-new', 'f-zero', 'f-fraction'])
      expect(await db.select().from(ledgerEntries).where(eq(ledgerEntries.idempotencyKey, key))).toEqual([]);
  });
});
