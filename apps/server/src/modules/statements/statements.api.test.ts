import { randomUUID } from 'node:crypto';
import type { AssetCode } from '@meridian/contracts/money';
import { parseAmountMinor } from '@meridian/contracts/money';
import type { Statement, StatementGeneration } from '@meridian/contracts/statements';
import { createTrustBodySchema } from '@meridian/contracts/trust';
import { parse } from 'csv-parse/sync';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerAndLogin, type TestApp, type TestSession } from '../../../test/helpers.ts';
import { postEntry, userBalances } from '../ledger/ledger.service.ts';
import {
  type AccountRef,
  cardAccount,
  type EntryInput,
  platformAccount,
  transfer,
  trustAccount,
  userAccount,
} from '../ledger/ledger.types.ts';
import { COINTRACKER_COLUMNS, KOINLY_COLUMNS } from './statements.csv.ts';
import { extendCardPromotion } from '../cards/cards.test-kit.ts';

/**
 * Account statements: a year of mixed activity posted through the ledger (as the wallet,
 * exchange, funds, loans, cards and trust modules post it) and dated month by month, then the
 * statements of every month chained; the HTTP calls (validation in both languages, one generation
 * at a time, polling, the four downloads); the tax CSVs parsed with each tool's column rules.
 */

let t: TestApp;
let alice: TestSession;
let bob: TestSession;
let cardId: number;
let trustId: number;
const YEAR = 2025;

const minor = (amount: string, asset: AssetCode) => parseAmountMinor(amount, asset);
/** A signed USDT decimal in minor units. */
const signedMinor = (amount: string) =>
  amount.startsWith('-') ? -parseAmountMinor(amount.slice(1), 'USDT') : parseAmountMinor(amount, 'USDT');
const wallet = (asset: AssetCode): AccountRef => userAccount(alice.userId, 'USER_AVAILABLE', asset);

/** Post `input` and date its entry at `at` (entries are dated by the database clock otherwise). */
async function postAt(at: string, input: EntryInput): Promise<void> {
  const { entry } = await postEntry(t.database.db, input);
  await t.database.db.execute(sql`UPDATE ledger_entries SET created_at = ${at}::timestamptz WHERE id = ${entry.id}`);
}

/** One month of Alice's activity, each movement posted as its module posts it. */
async function monthOfActivity(month: number): Promise<void> {
  const day = (d: number, hour = 10) =>
    `${YEAR}-${String(month).padStart(2, '0')}-${String(d).padStart(2, '0')}T${hour}:00:00Z`;
  const key = (name: string) => `stmt-test:${month}:${name}`;
  const usdt = (amount: string) => minor(amount, 'USDT');
  await postAt(day(1), {
    kind: 'DEPOSIT',
    reference: `deposit:${month}`,
    idempotencyKey: key('deposit'),
    postings: transfer(platformAccount('PLATFORM_HOT_WALLET', 'USDT'), wallet('USDT'), usdt('1000')),
  });
  await postAt(day(2), {
    kind: 'DEPOSIT',
    reference: `deposit:btc:${month}`,
    idempotencyKey: key('deposit-btc'),
    postings: transfer(platformAccount('PLATFORM_HOT_WALLET', 'BTC'), wallet('BTC'), minor('0.02', 'BTC')),
  });
  await postAt(day(3), {
    kind: 'EXCHANGE_SWAP',
    reference: `swap:${month}`,
    idempotencyKey: key('swap'),
    postings: [
      ...transfer(wallet('USDT'), platformAccount('EXCHANGE_INVENTORY', 'USDT'), usdt('100')),
      ...transfer(platformAccount('EXCHANGE_INVENTORY', 'USDE'), wallet('USDE'), minor('99.9', 'USDE')),
    ],
  });
  const frozen = userAccount(alice.userId, 'USER_FROZEN', 'USDT');
  await postAt(day(4), {
    kind: 'WITHDRAWAL_FREEZE',
    reference: `withdrawal:${month}`,
    idempotencyKey: key('freeze'),
    postings: transfer(wallet('USDT'), frozen, usdt('51')),
  });
  await postAt(day(5), {
    kind: 'WITHDRAWAL_SETTLE',
    reference: `withdrawal:${month}`,
    idempotencyKey: key('settle'),
    postings: [
      { account: frozen, amountMinor: -usdt('51') },
      { account: platformAccount('PLATFORM_HOT_WALLET', 'USDT'), amountMinor: usdt('50') },
      { account: platformAccount('PLATFORM_FEES', 'USDT'), amountMinor: usdt('1') },
    ],
  });
  const shares = userAccount(alice.userId, 'USER_FUND', 'USD');
  await postAt(day(6), {
    kind: 'FUND_SUBSCRIBE',
    reference: `fund-order:${month}`,
    idempotencyKey: key('subscribe'),
    postings: [
      ...transfer(wallet('USDT'), platformAccount('PLATFORM_FUND_POOL', 'USDT'), usdt('200')),
      ...transfer(platformAccount('PLATFORM_FUND_POOL', 'USD'), shares, minor('200', 'USD')),
    ],
  });
  await postAt(day(28, 23), {
    kind: 'FUND_INTEREST',
    reference: `fund-payout:${month}`,
    idempotencyKey: key('interest'),
    postings: transfer(platformAccount('PLATFORM_FUND_ACCRUED_INTEREST', 'USD'), shares, minor('1.25', 'USD')),
  });
  const collateral = userAccount(alice.userId, 'USER_LOAN_COLLATERAL', 'BTC');
  await postAt(day(8), {
    kind: 'LOAN_BORROW',
    reference: `loan:${month}`,
    idempotencyKey: key('borrow'),
    postings: [
      ...transfer(wallet('BTC'), collateral, minor('0.01', 'BTC')),
      ...transfer(platformAccount('PLATFORM_LOAN_POOL', 'USDT'), wallet('USDT'), usdt('300')),
    ],
  });
  await postAt(day(20), {
    kind: 'LOAN_REPAY',
    reference: `loan:${month}`,
    idempotencyKey: key('repay'),
    postings: [
      ...transfer(wallet('USDT'), platformAccount('PLATFORM_LOAN_POOL', 'USDT'), usdt('150')),
      ...transfer(wallet('USDT'), platformAccount('PLATFORM_LOAN_INTEREST', 'USDT'), usdt('2')),
    ],
  });
  if (month % 3 === 0)
    await postAt(day(21), {
      kind: 'LOAN_LIQUIDATION',
      reference: `loan:${month}`,
      idempotencyKey: key('liquidation'),
      postings: transfer(collateral, platformAccount('PLATFORM_LOAN_LIQUIDATION', 'BTC'), minor('0.005', 'BTC')),
    });
  await postAt(day(10), {
    kind: 'CARD_TOPUP',
    reference: `card:${cardId}`,
    idempotencyKey: key('topup'),
    postings: [
      ...transfer(wallet('USDT'), platformAccount('PLATFORM_CARD_FUNDING', 'USDT'), usdt('80')),
      ...transfer(
        platformAccount('PLATFORM_CARD_FUNDING', 'USD'),
        cardAccount(cardId, 'CARD_AVAILABLE', 'USD'),
        minor('80', 'USD'),
      ),
    ],
  });
  await postAt(day(11), {
    kind: 'CARD_HOLD',
    reference: `card:${cardId}`,
    idempotencyKey: key('hold'),
    postings: transfer(
      cardAccount(cardId, 'CARD_AVAILABLE', 'USD'),
      cardAccount(cardId, 'CARD_HELD', 'USD'),
      minor('30', 'USD'),
    ),
  });
  await postAt(day(12), {
    kind: 'CARD_CLEARING',
    reference: `card:${cardId}`,
    idempotencyKey: key('clearing'),
    postings: transfer(
      cardAccount(cardId, 'CARD_HELD', 'USD'),
      platformAccount('PLATFORM_CARD_SETTLEMENT', 'USD'),
      minor('30', 'USD'),
    ),
  });
  await postAt(day(15), {
    kind: 'TRUST_ENTRUST',
    reference: `trust:${trustId}`,
    idempotencyKey: key('entrust'),
    postings: [
      { account: wallet('BTC'), amountMinor: -minor('0.005', 'BTC') },
      { account: trustAccount(trustId, 'BTC'), amountMinor: minor('0.0049', 'BTC') },
      { account: platformAccount('PLATFORM_FEES', 'BTC'), amountMinor: minor('0.0001', 'BTC') },
    ],
  });
}

const lastDayOf = (month: number) => new Date(Date.UTC(YEAR, month, 0)).toISOString().slice(0, 10);
const firstDayOf = (month: number) => `${YEAR}-${String(month).padStart(2, '0')}-01`;
const accountKey = (a: Statement['accounts'][number]) => `${a.type}:${a.asset}:${a.ownerRef ?? ''}`;

beforeAll(async () => {
  t = await createTestApp();
  await extendCardPromotion(t);
  [alice, bob] = [await registerAndLogin(t.app), await registerAndLogin(t.app)];
  await t.app.identity.setKycLevel(alice.userId, 1);
  cardId = (
    await t.app.cards.apply(
      alice.userId,
      { kind: 'VIRTUAL', network: 'VISA', currency: 'USD', cardholderName: 'ALICE STATEMENT' },
      randomUUID(),
    )
  ).id;
  trustId = (
    await t.app.trust.create(
      alice.userId,
      createTrustBodySchema.parse({
        name: '家族信託',
        termMonths: null,
        isRevocable: true,
        inactivityMonths: 12,
        beneficiaries: [{ name: 'Bea', email: 'bea@example.com', sharePct: '100' }],
      }),
    )
  ).id;
  // BTC closes for the year (the market's stored daily bars): 60,000 + 100 × day of year.
  await t.database.db.execute(
    sql`INSERT INTO price_days (coin_code, bucket_at, open_usd, high_usd, low_usd, close_usd, sample_count)
        SELECT 'BTC', ${`${YEAR}-01-01T00:00:00Z`}::timestamptz + d * interval '1 day', c, c, c, c, 24
        FROM generate_series(0, 364) AS d, LATERAL (SELECT (60000 + 100 * d)::numeric AS c) AS close`,
  );
  for (let month = 1; month <= 12; month += 1) await monthOfActivity(month);
}, 120_000);

afterAll(async () => {
  await t?.close();
});

describe('statements over a year of mixed activity', () => {
  it('chains every month: each closing balance is the next opening, and December closes at the ledger balance', async () => {
    const months: Statement[] = [];
    for (let month = 1; month <= 12; month += 1)
      months.push(await t.app.statements.build(alice.userId, firstDayOf(month), lastDayOf(month)));
    for (let index = 1; index < months.length; index += 1) {
      const closing = new Map(months[index - 1]!.accounts.map((a) => [accountKey(a), a.closing]));
      const opening = new Map(months[index]!.accounts.map((a) => [accountKey(a), a.opening]));
      for (const [key, value] of closing) expect(opening.get(key) ?? '0', `${key} month ${index + 1}`).toBe(value);
      for (const [key, value] of opening) expect(closing.get(key) ?? '0', `${key} month ${index + 1}`).toBe(value);
    }
    // Each account's movements add up from opening to closing.
    for (const statement of months)
      for (const account of statement.accounts) {
        const asset = account.asset as AssetCode;
        const sum = account.movements.reduce(
          (total, m) => total + (m.amount.startsWith('-') ? -minor(m.amount.slice(1), asset) : minor(m.amount, asset)),
          minor(account.opening, asset),
        );
        expect(sum).toBe(minor(account.closing, asset));
      }
    // The loan section chains too: each loan's principal outstanding and interest owed close where
    // the next month opens, and opening + movements = closing.
    const loanKey = (loan: Statement['loans'][number]) => loan.reference;
    for (let index = 1; index < months.length; index += 1) {
      const closing = new Map(
        months[index - 1]!.loans.map((l) => [loanKey(l), [l.principalClosing, l.interestOwedClosing]]),
      );
      const opening = new Map(
        months[index]!.loans.map((l) => [loanKey(l), [l.principalOpening, l.interestOwedOpening]]),
      );
      for (const [key, value] of closing)
        expect(opening.get(key) ?? ['0.000000', '0.000000'], `${key} month ${index + 1}`).toEqual(value);
      for (const [key, value] of opening)
        expect(closing.get(key) ?? ['0.000000', '0.000000'], `${key} month ${index + 1}`).toEqual(value);
    }
    for (const statement of months)
      for (const loan of statement.loans) {
        const sum = (pick: (m: Statement['loans'][number]['movements'][number]) => string) =>
          loan.movements.reduce((total, m) => total + signedMinor(pick(m)), 0n);
        expect(signedMinor(loan.principalOpening) + sum((m) => m.principal)).toBe(signedMinor(loan.principalClosing));
        expect(signedMinor(loan.interestOwedOpening) + sum((m) => m.interestCharged) - sum((m) => m.interestPaid)).toBe(
          signedMinor(loan.interestOwedClosing),
        );
      }
    // January's loan (hand-worked): 300 USDT borrowed on the 8th, 150 principal + 2 interest repaid
    // on the 20th; with no term interest on record the 2 USDT paid is charged as it is paid.
    expect(months[0]!.loans).toEqual([
      expect.objectContaining({
        reference: 'loan:1',
        coin: 'USDT',
        principalOpening: '0.000000',
        principalClosing: '150.000000',
        interestOwedClosing: '0.000000',
        interestCharged: '2.000000',
        interestPaid: '2.000000',
        feesPaid: '0.000000',
      }),
    ]);
    expect(months[1]!.loans.find((l) => l.reference === 'loan:1')).toMatchObject({
      principalOpening: '150.000000',
      principalClosing: '150.000000',
      movements: [],
    });
    // The whole year's statement agrees with the months and with the ledger's balances now.
    const year = await t.app.statements.build(alice.userId, `${YEAR}-01-01`, `${YEAR}-12-31`);
    const december = new Map(months[11]!.accounts.map((a) => [accountKey(a), a.closing]));
    for (const account of year.accounts) expect(account.closing).toBe(december.get(accountKey(account)));
    const decemberLoans = new Map(months[11]!.loans.map((l) => [l.reference, l.principalClosing]));
    expect(year.loans).toHaveLength(12);
    for (const loan of year.loans) expect(loan.principalClosing).toBe(decemberLoans.get(loan.reference));
    const ledger = await userBalances(t.database.db, alice.userId);
    for (const balance of ledger) {
      const account = year.accounts.find(
        (a) => a.type === balance.type && a.asset === balance.asset && a.ownerRef === null,
      );
      expect(minor(account?.closing ?? '0', balance.asset), `${balance.type} ${balance.asset}`).toBe(
        balance.balanceMinor,
      );
    }
    // Every section appears, with the card's and the trust's accounts labelled.
    expect(new Set(year.accounts.map((a) => a.section))).toEqual(new Set(['main', 'fund', 'loan', 'card', 'trust']));
    expect(year.accounts.find((a) => a.type === 'TRUST_HOLDING')?.ownerRef).toBe('家族信託');
    expect(year.accounts.find((a) => a.type === 'CARD_HELD')?.ownerRef).toMatch(/^\*\*\*\* \d{4}$/);
    // Fees and USD values: the withdrawal's 1 USDT fee; BTC valued at the stored close of its day.
    const frozen = year.accounts.find((a) => a.type === 'USER_FROZEN')!;
    expect(frozen.movements.find((m) => m.kind === 'WITHDRAWAL_SETTLE')?.fee).toBe('1.000000');
    const btc = year.accounts.find((a) => a.type === 'USER_AVAILABLE' && a.asset === 'BTC')!;
    const janDeposit = btc.movements.find((m) => m.kind === 'DEPOSIT')!;
    expect(janDeposit.at.slice(0, 10)).toBe(`${YEAR}-01-02`);
    expect(janDeposit.amountUsd).toBe('1202.00'); // 0.02 × (60,000 + 100 × 1)
  });
});

describe('statement calls', () => {
  const post = (session: TestSession, body: unknown, lang = 'en-US') =>
    t.app.inject({
      method: 'POST',
      url: '/api/statements/generations',
      headers: { ...session.headers, 'User-Lang': lang },
      payload: body as object,
    });
  const get = (session: TestSession, url: string) =>
    t.app.inject({ method: 'GET', url, headers: { cookie: session.cookie } });

  /** The message of `field` in a 120 answer's `content.fields`. */
  const fieldMessage = (
    answer: { json(): { content: { fields: { field: string; message: string }[] } } },
    field: string,
  ) => answer.json().content.fields.find((item) => item.field === field)?.message;

  async function waitDone(id: string): Promise<StatementGeneration> {
    await t.app.statements.settled(id);
    const answer = await get(alice, `/api/statements/generations/${id}`);
    return answer.json().content as StatementGeneration;
  }

  it('refuses a bad range naming the field, in English and in Traditional Chinese, and starts nothing', async () => {
    const reversed = await post(alice, { from: `${YEAR}-03-10`, to: `${YEAR}-03-01` });
    expect(reversed.json()).toMatchObject({ statusCode: 120 });
    expect(fieldMessage(reversed, 'to')).toBe('The end date must not be before the start date');
    const tooLong = await post(alice, { from: `${YEAR - 1}-01-01`, to: `${YEAR}-12-31` }, 'zh-HK');
    expect(fieldMessage(tooLong, 'to')).toBe('結單最多涵蓋 366 日');
    const badDay = await post(alice, { from: `${YEAR}-02-30`, to: `${YEAR}-03-01` }, 'zh-HK');
    expect(fieldMessage(badDay, 'from')).toBe('請以 YYYY-MM-DD 格式輸入日期');
    const future = await post(alice, { from: '2999-01-01', to: '2999-01-02' });
    expect(fieldMessage(future, 'from')).toBe('The start date must not be in the future');
    expect(await t.app.statements.latest(alice.userId)).toBeNull();
  });

  it('runs one generation per user at a time, shows progress, and downloads PDF, CSV and the tax files', async () => {
    const body = { from: `${YEAR}-01-01`, to: `${YEAR}-12-31` };
    const [first, second] = await Promise.all([post(alice, body), post(alice, body, 'zh-HK')]);
    const answers = [first.json(), second.json()];
    const started = answers.find((a) => a.statusCode === 200)!;
    const refused = answers.find((a) => a.statusCode !== 200)!;
    expect(refused).toMatchObject({ statusCode: 250 });
    expect(started.content).toMatchObject({ status: 'RUNNING', progressPercent: 0, statement: null });
    const id = started.content.id as string;
    // Bob can neither see nor download Alice's generation; his own slot is free.
    expect((await get(bob, `/api/statements/generations/${id}`)).json().statusCode).toBe(104);
    expect((await get(bob, `/api/statements/generations/${id}/file?format=csv`)).json().statusCode).toBe(104);

    const latest = (await get(alice, '/api/statements/generations/latest')).json();
    expect(latest).toMatchObject({ statusCode: 200, content: { id } });
    expect((await get(bob, '/api/statements/generations/latest')).json()).toMatchObject({
      statusCode: 200,
      content: null,
    });
    const done = await waitDone(id);
    expect(done).toMatchObject({ status: 'DONE', progressPercent: 100 });
    expect(done.statement!.accounts.length).toBeGreaterThanOrEqual(8);
    // Done: the slot is free again.
    const next = await post(alice, { from: `${YEAR}-06-01`, to: `${YEAR}-06-30` });
    expect(next.json().statusCode).toBe(200);
    await t.app.statements.settled(next.json().content.id);

    const csv = await get(alice, `/api/statements/generations/${id}/file?format=csv`);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe(
      `attachment; filename="meridian-statement-${YEAR}-01-01-${YEAR}-12-31.csv"`,
    );
    const statementRows = parse(csv.body, { columns: true }) as Record<string, string>[];
    expect(new Set(statementRows.map((r) => r.Row))).toEqual(
      new Set(['OPENING', 'MOVEMENT', 'CLOSING', 'CLOSING_TOTAL']),
    );
    // The loans' debt rows: principal outstanding and interest owed per loan.
    expect(new Set(statementRows.filter((r) => r.Section === 'loan').map((r) => r.Account))).toEqual(
      new Set(['USER_LOAN_COLLATERAL', 'LOAN_PRINCIPAL', 'LOAN_INTEREST']),
    );
    expect(statementRows.at(-1)).toMatchObject({ Row: 'CLOSING_TOTAL', 'USD value': done.statement!.closingUsdTotal });

    const pdf = await get(alice, `/api/statements/generations/${id}/file?format=pdf&lang=zh-HK`);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.rawPayload.toString('latin1')).toContain('NotoSansHK');

    const badFormat = await t.app.inject({
      method: 'GET',
      url: `/api/statements/generations/${id}/file?format=xlsx`,
      headers: { cookie: alice.cookie, 'User-Lang': 'zh-HK' },
    });
    expect(badFormat.json().statusCode).toBe(120);
    expect(badFormat.json().content.fields.map((item: { field: string }) => item.field)).toEqual(['format']);
    expect(fieldMessage(badFormat, 'format')).toMatch(/[\u4e00-\u9fff]/);

    // Koinly universal: exactly its columns; each row kind recognisable by its sides and label.
    const koinly = parse((await get(alice, `/api/statements/generations/${id}/file?format=koinly`)).body, {
      columns: true,
    }) as Record<string, string>[];
    expect(Object.keys(koinly[0]!)).toEqual([...KOINLY_COLUMNS]);
    for (const row of koinly) {
      expect(row.Date).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC$/);
      expect(row['Sent Amount'] !== '' || row['Received Amount'] !== '' || row['Fee Amount'] !== '').toBe(true);
      for (const column of ['Sent Amount', 'Received Amount', 'Fee Amount', 'Net Worth Amount'])
        if (row[column]) expect(row[column]).toMatch(/^\d+(\.\d+)?$/);
    }
    const is = (row: Record<string, string>, sent: boolean, received: boolean) =>
      (row['Sent Amount'] !== '') === sent && (row['Received Amount'] !== '') === received;
    const described = (text: string) => koinly.filter((r) => (r.Description ?? '').includes(text));
    expect(described('Deposit').every((r) => is(r, false, true) && r.Label === '')).toBe(true);
    expect(described('Deposit')).toHaveLength(24);
    const withdrawal = described('Withdrawal');
    expect(withdrawal).toHaveLength(12);
    expect(withdrawal[0]).toMatchObject({
      'Sent Amount': '50',
      'Sent Currency': 'USDT',
      'Fee Amount': '1',
      'Fee Currency': 'USDT',
    });
    expect(described('Swap')[0]).toMatchObject({
      'Sent Amount': '100',
      'Sent Currency': 'USDT',
      'Received Amount': '99.9',
      'Received Currency': 'USDE',
    });
    expect(described('Fund interest')[0]).toMatchObject({
      'Received Amount': '1.25',
      'Received Currency': 'USD',
      Label: 'lending interest',
    });
    expect(described('Loan borrowed')[0]).toMatchObject({
      'Received Amount': '300',
      'Received Currency': 'USDT',
      Label: 'loan',
    });
    expect(described('Loan repaid')[0]).toMatchObject({ 'Sent Amount': '152', Label: 'loan repayment' });
    expect(described('Loan collateral liquidated')).toHaveLength(4);
    expect(described('Loan collateral liquidated')[0]).toMatchObject({
      'Sent Amount': '0.005',
      'Sent Currency': 'BTC',
      Label: '',
    });
    expect(described('Card purchase')[0]).toMatchObject({ 'Sent Amount': '30', 'Sent Currency': 'USD', Label: '' });
    // Moves between Alice's own accounts are no tax events, but the fee a trust entrustment takes is.
    expect(described('Platform fee')).toHaveLength(12);
    expect(described('Platform fee')[0]).toMatchObject({
      'Sent Amount': '',
      'Fee Amount': '0.0001',
      'Fee Currency': 'BTC',
    });
    expect(koinly).toHaveLength(24 + 12 * 6 + 4 + 12);

    // CoinTracker: exactly its columns, its date format, the same events.
    const coinTracker = parse((await get(alice, `/api/statements/generations/${id}/file?format=cointracker`)).body, {
      columns: true,
    }) as Record<string, string>[];
    expect(Object.keys(coinTracker[0]!)).toEqual([...COINTRACKER_COLUMNS]);
    expect(coinTracker).toHaveLength(koinly.length);
    for (const row of coinTracker) expect(row.Date).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/);
    const tagged = (tag: string) => coinTracker.filter((r) => r.Tag === tag);
    expect(tagged('interest')).toHaveLength(12);
    expect(tagged('loan')).toHaveLength(12);
    expect(tagged('loan repayment')).toHaveLength(12);
    const trades = coinTracker.filter((r) => r['Sent Quantity'] !== '' && r['Received Quantity'] !== '');
    expect(trades).toHaveLength(12);
    const sends = coinTracker.filter((r) => r['Sent Quantity'] !== '' && r['Received Quantity'] === '' && r.Tag === '');
    expect(new Set(sends.map((r) => r['Sent Currency']))).toEqual(new Set(['USDT', 'BTC', 'USD']));
  });

  it('answers 251 while a generation runs and 252 for a failed one', async () => {
    const id = randomUUID();
    await t.database.db.execute(
      // Started now by the app's clock (an older one would be taken for a stale run and failed).
      sql`INSERT INTO statement_generations (id, user_id, from_day, to_day, status, progress_percent, created_at)
          VALUES (${id}, ${bob.userId}, '2025-01-01', '2025-01-31', 'RUNNING', 40, ${t.app.clock.now().toISOString()}::timestamptz)`,
    );
    const notReady = await get(bob, `/api/statements/generations/${id}/file?format=pdf`);
    expect(notReady.json()).toMatchObject({ statusCode: 251 });
    expect(notReady.json().message).toContain('40%');
    expect((await post(bob, { from: '2025-01-01', to: '2025-01-31' })).json().statusCode).toBe(250);
    await t.database.db.execute(sql`UPDATE statement_generations SET status = 'FAILED' WHERE id = ${id}`);
    expect((await get(bob, `/api/statements/generations/${id}/file?format=csv`)).json().statusCode).toBe(252);
  });
});
