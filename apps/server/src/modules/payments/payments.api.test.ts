import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { registerAndLogin, sensitiveCode, type TestSession } from '../../../test/helpers.ts';
import { createKycKit, type KycKit } from '../kyc/kyc.test-kit.ts';

/**
 * Bank accounts: the level gate, every field rule refused with code 120 naming its field
 * in both languages and nothing stored, the verified-name match, the security check, the limit of
 * 5, soft removal and another user's account.
 */
let kit: KycKit;
let owner: TestSession;

const ADD = '/api/fund/investor/bankAccount/add';
const LIST = '/api/fund/investor/bankAccount/select';
const deleteUrl = (id: number) => `/api/fund/investor/bankAccount/delete/${id}`;

/** A valid GB account (the IBAN test vector of the UK banks' published example, its bank's BIC). */
const GB_ACCOUNT = {
  accountHolder: 'Tai Man Chan',
  bankName: 'NatWest',
  swiftBic: 'NWBK GB 2L',
  iban: 'GB82 WEST 1234 5698 7654 32',
  currency: 'USD',
  country: 'GB',
};

/** A valid Hong Kong account: no IBAN, an account number. */
const HK_ACCOUNT = {
  accountHolder: 'CHAN taiman',
  bankName: 'HSBC Hong Kong',
  swiftBic: 'HSBCHKHHHKH',
  accountNumber: '004-123-456789-001',
  currency: 'USD',
  country: 'HK',
};

/** A level-2 user whose verified name is Tai Man Chan (basic KYC approved, then level 2 given as the demo seed does). */
async function investor(): Promise<TestSession> {
  const session = await kit.verifiedUser();
  await kit.t.app.identity.setKycLevel(session.userId, 2);
  return session;
}

async function list(session: TestSession): Promise<{ id: number; accountNumber: string }[]> {
  return (await kit.get(session, LIST)).json().content;
}

async function storedRows(userId: string): Promise<number> {
  const result = await kit.t.database.db.execute(
    sql`SELECT count(*)::int AS n FROM bank_accounts WHERE user_id = ${userId}`,
  );
  const rows = (Array.isArray(result) ? result : (result as { rows: { n: number }[] }).rows) as { n: number }[];
  return Number(rows[0]!.n);
}

/**
 * An email code for `event` (the default trade factor), as many times as a test needs: the user's
 * earlier codes are moved a minute back first, past the 59-second resend wait.
 */
async function code(session: TestSession, event: 'BANK_ACCOUNT_ADD' | 'BANK_ACCOUNT_DELETE' | 'WITHDRAW_ADDRESS_ADD') {
  await kit.t.database.db.execute(
    sql`UPDATE verification_codes SET created_at = created_at - interval '1 minute' WHERE address = ${session.email}`,
  );
  return sensitiveCode(kit.t.app, session, event);
}

beforeAll(async () => {
  kit = await createKycKit();
  owner = await investor();
}, 120_000);

afterAll(async () => {
  await kit.close();
});

describe('bank accounts', () => {
  it('needs identity level 2 (143 naming the step)', async () => {
    const newcomer = await registerAndLogin(kit.t.app);
    const listed = (await kit.get(newcomer, LIST)).json();
    expect(listed.statusCode).toBe(143);
    const added = (await kit.post(newcomer, ADD, GB_ACCOUNT)).json();
    expect(added.statusCode).toBe(143);
    expect(await storedRows(newcomer.userId)).toBe(0);
  });

  const refusals: { name: string; body: Record<string, unknown>; field: string; en: string; zh: string }[] = [
    {
      name: 'a holder who is not the verified name',
      body: { ...GB_ACCOUNT, accountHolder: 'Someone Else' },
      field: 'accountHolder',
      en: 'The account holder must be you: enter the name you verified, Tai Man Chan',
      zh: '帳戶持有人須為你本人：請輸入已認證的姓名 Tai Man Chan',
    },
    {
      name: 'an empty holder',
      body: { ...GB_ACCOUNT, accountHolder: ' ' },
      field: 'accountHolder',
      en: 'Enter the account holder’s name (at least 2 characters)',
      zh: '請輸入帳戶持有人姓名（最少 2 個字元）',
    },
    {
      name: 'a one-letter bank name',
      body: { ...GB_ACCOUNT, bankName: 'N' },
      field: 'bankName',
      en: 'Enter the bank’s name (at least 2 characters)',
      zh: '請輸入銀行名稱（最少 2 個字元）',
    },
    {
      name: 'a BIC of a wrong format',
      body: { ...GB_ACCOUNT, swiftBic: 'NWB1GB2L' },
      field: 'swiftBic',
      en: 'Enter a valid SWIFT/BIC code of 8 or 11 characters',
      zh: '請輸入有效的 8 位或 11 位 SWIFT/BIC 代碼',
    },
    {
      name: 'a BIC of another country',
      body: { ...GB_ACCOUNT, swiftBic: 'HSBCHKHH' },
      field: 'swiftBic',
      en: 'The SWIFT/BIC code’s country (5th and 6th characters) must be the bank’s country',
      zh: 'SWIFT/BIC 代碼的國家（第 5 及第 6 個字元）須與銀行所在國家相同',
    },
    {
      name: 'an IBAN with wrong check digits',
      body: { ...GB_ACCOUNT, iban: 'GB83WEST12345698765432' },
      field: 'iban',
      en: 'Enter a valid IBAN (check the digits)',
      zh: '請輸入有效的 IBAN（請核對號碼）',
    },
    {
      name: 'no IBAN where the country uses it',
      body: { ...GB_ACCOUNT, iban: '', accountNumber: '12345678' },
      field: 'iban',
      en: 'Banks in this country use an IBAN: please enter it',
      zh: '此國家的銀行使用 IBAN，請輸入',
    },
    {
      name: 'an IBAN of another country',
      body: { ...GB_ACCOUNT, iban: 'DE89 3704 0044 0532 0130 00' },
      field: 'iban',
      en: 'The IBAN must start with the bank’s country code',
      zh: 'IBAN 須以銀行所在國家的代碼開頭',
    },
    {
      name: 'an IBAN where the country has none',
      body: { ...HK_ACCOUNT, iban: 'GB82WEST12345698765432' },
      field: 'iban',
      en: 'Banks in this country do not use an IBAN: enter the account number',
      zh: '此國家的銀行不使用 IBAN，請輸入帳戶號碼',
    },
    {
      name: 'no account number where the country has no IBAN',
      body: { ...HK_ACCOUNT, accountNumber: undefined },
      field: 'accountNumber',
      en: 'Enter the account number',
      zh: '請輸入帳戶號碼',
    },
    {
      name: 'an account number with other characters',
      body: { ...HK_ACCOUNT, accountNumber: '004/123' },
      field: 'accountNumber',
      en: 'Enter an account number of 4 to 34 letters or digits',
      zh: '請輸入 4 至 34 位字母或數字的帳戶號碼',
    },
    {
      name: 'a currency other than USD',
      body: { ...GB_ACCOUNT, currency: 'EUR' },
      field: 'currency',
      en: 'Only USD accounts can be added',
      zh: '只可新增美元（USD）帳戶',
    },
    {
      name: 'an unknown country',
      body: { ...GB_ACCOUNT, country: 'XX' },
      field: 'country',
      en: 'Select a country or region',
      zh: '請選擇國家或地區',
    },
  ];

  it.each(refusals)('refuses $name with 120 naming $field in both languages, storing nothing', async (refusal) => {
    for (const [locale, message] of [
      ['en-US', refusal.en],
      ['zh-HK', refusal.zh],
    ] as const) {
      const answer = (await kit.post(owner, ADD, refusal.body, locale)).json();
      expect(answer.statusCode).toBe(120);
      expect(answer.content.fields[0]).toEqual({ field: refusal.field, message });
    }
    expect(await storedRows(owner.userId)).toBe(0);
  });

  it('refuses a user whose basic KYC is not verified, naming the holder', async () => {
    const levelled = await registerAndLogin(kit.t.app);
    await kit.t.app.identity.setKycLevel(levelled.userId, 2);
    const answer = (await kit.post(levelled, ADD, GB_ACCOUNT)).json();
    expect(answer.statusCode).toBe(120);
    expect(answer.content.fields[0].field).toBe('accountHolder');
    expect(await storedRows(levelled.userId)).toBe(0);
  });

  it('adds only with the security check, lists, refuses a duplicate, the sixth account and another user', async () => {
    const withoutCode = (await kit.post(owner, ADD, GB_ACCOUNT)).json();
    expect(withoutCode).toMatchObject({ statusCode: 120, content: { fields: [{ field: 'emailCaptcha' }] } });
    const otherEvent = await code(owner, 'WITHDRAW_ADDRESS_ADD');
    expect((await kit.post(owner, ADD, { ...GB_ACCOUNT, emailCaptcha: otherEvent })).json().statusCode).toBe(119);
    const wrongCode = (await kit.post(owner, ADD, { ...GB_ACCOUNT, emailCaptcha: '000000' })).json();
    expect(wrongCode.statusCode).toBe(119);
    expect(await storedRows(owner.userId)).toBe(0);

    const emailCaptcha = await code(owner, 'BANK_ACCOUNT_ADD');
    const added = (await kit.post(owner, ADD, { ...GB_ACCOUNT, emailCaptcha })).json();
    expect(added.statusCode).toBe(200);
    expect(added.content).toMatchObject({
      accountHolder: 'Tai Man Chan',
      bankName: 'NatWest',
      swiftBic: 'NWBKGB2L',
      iban: 'GB82WEST12345698765432',
      accountNumber: 'GB82WEST12345698765432',
      currency: 'USD',
      country: 'GB',
      isDomestic: false,
    });
    // The code was used up: the same code does not add a second account.
    const replayed = (await kit.post(owner, ADD, { ...HK_ACCOUNT, emailCaptcha })).json();
    expect(replayed.statusCode).toBe(119);

    const messages = (await kit.get(owner, '/api/notice/message/list?pageID=1&pageSize=10')).json().content;
    expect(messages.list.map((m: { title: string }) => m.title)).toContain('Bank account added');

    const duplicate = (await kit.post(owner, ADD, { ...GB_ACCOUNT, iban: 'gb82west12345698765432' })).json();
    expect(duplicate.content.fields[0]).toEqual({ field: 'iban', message: 'This account is already bound' });

    // Up to five: four more through the service (no factors outside HTTP), the HK one domestic.
    const hk = await kit.t.app.payments.addBankAccount(owner.userId, {
      ...HK_ACCOUNT,
      accountNumber: '004123456789001',
      currency: 'USD',
    });
    expect(hk).toMatchObject({ iban: null, accountNumber: '004123456789001', isDomestic: true });
    for (const number of ['004123456789002', '004123456789003', '004123456789004'])
      await kit.t.app.payments.addBankAccount(owner.userId, { ...HK_ACCOUNT, accountNumber: number, currency: 'USD' });
    expect(await list(owner)).toHaveLength(5);

    const sixth = { ...HK_ACCOUNT, accountNumber: '004123456789005' };
    for (const [locale, message] of [
      ['en-US', 'You can bind at most 5 bank accounts; remove one before adding another'],
      ['zh-HK', '最多只可綁定 5 個銀行帳戶，請先移除一個再新增'],
    ] as const) {
      const refused = await kit.post(
        owner,
        ADD,
        { ...sixth, emailCaptcha: await code(owner, 'BANK_ACCOUNT_ADD') },
        locale,
      );
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ statusCode: 175, message });
    }
    expect(await storedRows(owner.userId)).toBe(5);

    // Another level-2 user can neither see nor remove the owner's account.
    const stranger = await investor();
    expect(await list(stranger)).toEqual([]);
    const strangerCode = await code(stranger, 'BANK_ACCOUNT_DELETE');
    const theirs = (await kit.post(stranger, deleteUrl(added.content.id), { emailCaptcha: strangerCode })).json();
    expect(theirs.statusCode).toBe(104);
    expect(await list(owner)).toHaveLength(5);
  });

  it('removes with the security check, keeping the row for history; the number can be bound again', async () => {
    const [newest] = await list(owner);
    const id = newest!.id;
    expect((await kit.post(owner, deleteUrl(id), {})).json()).toMatchObject({
      statusCode: 120,
      content: { fields: [{ field: 'emailCaptcha' }] },
    });
    expect(await list(owner)).toHaveLength(5);

    const emailCaptcha = await code(owner, 'BANK_ACCOUNT_DELETE');
    expect((await kit.post(owner, deleteUrl(id), { emailCaptcha })).json().statusCode).toBe(200);
    expect((await list(owner)).map((account) => account.id)).not.toContain(id);
    expect(await storedRows(owner.userId)).toBe(5);
    expect(await kit.t.app.payments.findBankAccount(owner.userId, id)).toBeNull();
    expect(
      await kit.t.app.payments.findBankAccount(owner.userId, id, undefined, { includeRemoved: true }),
    ).toMatchObject({ id, accountNumber: newest!.accountNumber });
    const again = await code(owner, 'BANK_ACCOUNT_DELETE');
    expect((await kit.post(owner, deleteUrl(id), { emailCaptcha: again })).json().statusCode).toBe(104);

    const rebound = await kit.t.app.payments.addBankAccount(owner.userId, {
      ...HK_ACCOUNT,
      accountNumber: newest!.accountNumber,
      currency: 'USD',
    });
    expect(rebound.id).not.toBe(id);
    expect(await list(owner)).toHaveLength(5);
  });
});
