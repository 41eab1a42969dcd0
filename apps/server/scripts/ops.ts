/**
 * `npm run ops -- …`: the operator command line.
 *
 *   operators add --email ops@example.com --role support|compliance|finance|admin
 *       Create (or re-key) an operator and print, once, its temporary password for the back office
 *       (/admin: TOTP enrolment follows at the first sign-in) and its script token (OPS_TOKEN). Opens
 *       the database directly (DATABASE_URL, or the embedded PGlite in DATA_DIR: stop the server
 *       first, it holds the lock). The first admin is made this way; later operators by an admin in
 *       the back office.
 *   withdrawals list [--status 0]
 *   withdrawals process <id>
 *   withdrawals complete <id> --tx <txHash>
 *   withdrawals fail <id> --reason <text>
 *   kyc list [--step basic|investor|aml|qualified|residence] [--status 2]
 *       The review queue, oldest first: every step by default; status 2 (awaiting a decision) by default.
 *   kyc show <userId>
 *   kyc approve <userId>
 *   kyc reject <userId> --reason <text>
 *   kyc approve <userId> --step investor|aml|qualified|residence   (investor profile; AML answers in
 *       enhanced review; QI; a change of residence)
 *   kyc reject <userId> --step investor|aml|qualified|residence --reason <text>
 *   terms schedule --effective YYYY-MM-DD --title-en T --title-zh T --body-en B --body-zh B
 *       Announce a change of terms to every user 7 Hong Kong working days before it takes effect
 *       (role compliance or admin; an earlier date is refused naming the earliest allowed).
 *   terms list
 *   limits list                      (withdrawal limits per identity level, USD)
 *   limits set --level 1 --per-24h 20000 --per-month 200000   (role admin; audited)
 *   alerts list [--status open|released|confirmed]            (screening alerts, oldest first)
 *   alerts release <id> [--note <text>]   (a frozen deposit is credited to the user)
 *   alerts confirm <id> --note <text>     (the hit stands; a deposit stays frozen)
 *   trusts list [--status active|claim|closed]       (BTC trusts, default claim; role compliance or finance)
 *   trusts release <id> --reference <payout ref> --note <how the beneficiaries were verified>
 *       (role finance; the trust's BTC moves to TRUST_PAYOUTS for the off-platform payout; audited)
 *   wires record --reference MW… --amount 2000.00 --sender "NAME" --bank-tx BANK-TX-ID
 *       A USD wire received on Meridian's account (role finance): credits the pending fund
 *       subscription of its reference once (the same --bank-tx twice answers the first record), or
 *       goes to suspense (unknown reference, order no longer pending, other amount).
 *   wires list [--status CREDITED|SUSPENSE|RETURNED]
 *   wires apply <id> --reference MW… --note <text>      (a wire in suspense pays the pending subscription named)
 *   wires return <id> --note <text>                     (a wire in suspense goes back to its sender)
 *   wires outgoing [--status PENDING|SENT|FAILED]       (redemptions to USD owed to users)
 *   wires sent <id> [--note <text>]                     (the redemption completes)
 *   wires failed <id> --note <text>                     (the shares return to the user's current fund)
 *   liabilities compare [--date YYYY-MM-DD]   (role finance or compliance; issue 21, docs/liabilities.md)
 *       The proof-of-liabilities snapshot's totals per asset (default the latest) against what custody
 *       held at the snapshot, and whether its stored leaves still rebuild its published root. Exit
 *       code 1 when the root does not rebuild or an asset's holdings are below the users' total.
 *       Call the running server's operator API (--url, default PUBLIC_URL) with OPS_TOKEN
 *       (KYC decisions and alert decisions need an operator with role compliance or admin).
 */
import { parseArgs } from 'node:util';
import type { LiabilitiesCompare } from '@meridian/contracts/liabilities';
import { loadConfig } from '../src/config.ts';
import { OPERATOR_ROLES, type OperatorRole } from '../src/modules/admin/admin.types.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    email: { type: 'string' },
    role: { type: 'string' },
    step: { type: 'string' },
    status: { type: 'string' },
    tx: { type: 'string' },
    reason: { type: 'string' },
    url: { type: 'string' },
    effective: { type: 'string' },
    'title-en': { type: 'string' },
    'title-zh': { type: 'string' },
    'body-en': { type: 'string' },
    'body-zh': { type: 'string' },
    level: { type: 'string' },
    'per-24h': { type: 'string' },
    'per-month': { type: 'string' },
    note: { type: 'string' },
    reference: { type: 'string' },
    amount: { type: 'string' },
    sender: { type: 'string' },
    'bank-tx': { type: 'string' },
    date: { type: 'string' },
  },
});
const [group, action, id] = positionals;
const config = loadConfig();

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

async function addOperator(): Promise<void> {
  const role = values.role as OperatorRole | undefined;
  if (!values.email || !role || !OPERATOR_ROLES.includes(role))
    fail(`usage: npm run ops -- operators add --email E --role ${OPERATOR_ROLES.join('|')}`);
  const { openDatabase } = await import('../src/platform/db/client.ts');
  const { findMigrationsDir } = await import('../src/platform/db/migrate.ts');
  const { OperatorAccess } = await import('../src/modules/admin/admin.access.ts');
  const { readOrCreateSecret } = await import('../src/platform/security/secrets.ts');
  const database = await openDatabase(config.database);
  try {
    await database.migrate(findMigrationsDir());
    const secret = config.sessionSecret ?? readOrCreateSecret(config.dataDir, 'session-secret');
    const { systemClock } = await import('../src/platform/clock/clock.ts');
    // A command-line tool: the machine's clock.
    const access = new OperatorAccess(database.db, { secret, ipAllowlist: [], now: () => systemClock.now().getTime() });
    const { operator, temporaryPassword, token } = await access.createOperator(values.email, role);
    console.log(
      `operator ${operator.email} (${operator.role})\nTEMPORARY_PASSWORD=${temporaryPassword}\nOPS_TOKEN=${token}`,
    );
  } finally {
    await database.close();
  }
}

async function callApi(method: 'GET' | 'POST' | 'PUT', path: string, body?: object): Promise<void> {
  const token = process.env.OPS_TOKEN;
  if (!token) fail('Set OPS_TOKEN to an operator token (npm run ops -- operators add …).');
  const baseUrl = (values.url ?? config.publicUrl).replace(/\/$/, '');
  const response = await fetch(`${baseUrl}/api/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const answer = (await response.json()) as { statusCode: number; message: string; content: unknown };
  console.log(JSON.stringify(answer, null, 2));
  process.exitCode = answer.statusCode === 200 ? 0 : 1;
}

/**
 * `liabilities compare`: `GET admin/liabilities/compare` printed as a table (minor units); exit code 1
 * when the stored leaves do not rebuild the root or custody holds less than the users' total of an asset.
 */
async function compareLiabilities(): Promise<void> {
  const token = process.env.OPS_TOKEN;
  if (!token) fail('Set OPS_TOKEN to an operator token (npm run ops -- operators add …).');
  const baseUrl = (values.url ?? config.publicUrl).replace(/\/$/, '');
  const query = values.date ? `?date=${encodeURIComponent(values.date)}` : '';
  const response = await fetch(`${baseUrl}/api/admin/liabilities/compare${query}`, {
    headers: { authorization: `Bearer ${token}` },
  });
  const answer = (await response.json()) as { statusCode: number; message: string; content: LiabilitiesCompare };
  if (answer.statusCode !== 200) {
    console.error(`${answer.statusCode}: ${answer.message}`);
    process.exitCode = 1;
    return;
  }
  const { snapshotDate, rootHash, isRootRebuilt, lines } = answer.content;
  console.log(`snapshot ${snapshotDate}  root ${rootHash}  leaves rebuild the root: ${isRootRebuilt ? 'yes' : 'NO'}`);
  console.table(
    lines.map((line) => ({
      asset: line.asset,
      'users (tree total)': line.treeTotalMinor,
      'ledger liabilities': line.ledgerLiabilitiesMinor,
      'custody holdings': line.holdingsMinor,
      surplus: line.surplusMinor,
      covered: line.isCovered ? 'yes' : 'SHORT',
    })),
  );
  process.exitCode = isRootRebuilt && lines.every((line) => line.isCovered) ? 0 : 1;
}

/** The review steps `--step` names (`KYC_REVIEW_STEPS` of the contracts). */
const KYC_STEPS = ['basic', 'investor', 'aml', 'qualified', 'residence'];

/** `/investor`, `/aml`, `/qualified` or `/residence` for `--step`, '' for basic KYC. */
function kycStepPath(): string {
  if (values.step === undefined || values.step === 'basic') return '';
  if (!KYC_STEPS.includes(values.step)) fail(`--step is ${KYC_STEPS.join(', ')}`);
  return `/${values.step}`;
}

/** `?step=…&status=…` of `kyc list`, from the options given. */
function kycListQuery(): string {
  const query = new URLSearchParams();
  if (values.step !== undefined) query.set('step', values.step);
  if (values.status !== undefined) query.set('status', values.status);
  const text = query.toString();
  return text ? `?${text}` : '';
}

/** `terms schedule`: the body of `POST admin/terms-changes` from the options. */
function termsBody(): object {
  const body = {
    effectiveOn: values.effective,
    titleEn: values['title-en'],
    titleZh: values['title-zh'],
    bodyEn: values['body-en'],
    bodyZh: values['body-zh'],
  };
  if (Object.values(body).some((value) => value === undefined))
    fail(
      'usage: npm run ops -- terms schedule --effective YYYY-MM-DD --title-en T --title-zh T --body-en B --body-zh B',
    );
  return body;
}

if (group === 'operators' && action === 'add') await addOperator();
else if (group === 'withdrawals' && action === 'list')
  await callApi('GET', `/withdrawals${values.status ? `?status=${encodeURIComponent(values.status)}` : ''}`);
else if (group === 'withdrawals' && action === 'process' && id) await callApi('POST', `/withdrawals/${id}/process`, {});
else if (group === 'withdrawals' && action === 'complete' && id && values.tx)
  await callApi('POST', `/withdrawals/${id}/complete`, { txHash: values.tx });
else if (group === 'withdrawals' && action === 'fail' && id && values.reason)
  await callApi('POST', `/withdrawals/${id}/fail`, { reason: values.reason });
else if (group === 'kyc' && action === 'list') await callApi('GET', `/kyc${kycListQuery()}`);
else if (group === 'kyc' && action === 'show' && id) await callApi('GET', `/kyc/${encodeURIComponent(id)}`);
else if (group === 'kyc' && action === 'approve' && id)
  await callApi('POST', `/kyc/${encodeURIComponent(id)}${kycStepPath()}/approve`);
else if (group === 'kyc' && action === 'reject' && id && values.reason)
  await callApi('POST', `/kyc/${encodeURIComponent(id)}${kycStepPath()}/reject`, { reason: values.reason });
else if (group === 'terms' && action === 'schedule') await callApi('POST', '/terms-changes', termsBody());
else if (group === 'terms' && action === 'list') await callApi('GET', '/terms-changes');
else if (group === 'limits' && action === 'list') await callApi('GET', '/withdrawal-limits');
else if (group === 'limits' && action === 'set' && values.level && values['per-24h'] && values['per-month'])
  await callApi('PUT', `/withdrawal-limits/${encodeURIComponent(values.level)}`, {
    usdPer24h: values['per-24h'],
    usdPerMonth: values['per-month'],
  });
else if (group === 'alerts' && action === 'list')
  await callApi('GET', `/screening/alerts${values.status ? `?status=${encodeURIComponent(values.status)}` : ''}`);
else if (group === 'alerts' && action === 'release' && id)
  await callApi(
    'POST',
    `/screening/alerts/${encodeURIComponent(id)}/release`,
    values.note ? { note: values.note } : {},
  );
else if (group === 'alerts' && action === 'confirm' && id && values.note)
  await callApi('POST', `/screening/alerts/${encodeURIComponent(id)}/confirm`, { note: values.note });
else if (group === 'trusts' && action === 'list')
  await callApi('GET', `/trusts?pageSize=100&state=${encodeURIComponent(values.status ?? 'claim')}`);
else if (group === 'trusts' && action === 'release' && id && values.reference && values.note)
  await callApi('POST', `/trusts/${encodeURIComponent(id)}/release`, {
    reference: values.reference,
    verificationNote: values.note,
  });
else if (
  group === 'wires' &&
  action === 'record' &&
  values.reference &&
  values.amount &&
  values.sender &&
  values['bank-tx']
)
  await callApi('POST', '/wires', {
    reference: values.reference,
    amount: values.amount,
    sender: values.sender,
    bankTransactionId: values['bank-tx'],
  });
else if (group === 'wires' && action === 'list')
  await callApi('GET', `/wires${values.status ? `?status=${encodeURIComponent(values.status)}` : ''}`);
else if (group === 'wires' && action === 'apply' && id && values.reference && values.note)
  await callApi('POST', `/wires/${encodeURIComponent(id)}/apply`, { reference: values.reference, note: values.note });
else if (group === 'wires' && action === 'return' && id && values.note)
  await callApi('POST', `/wires/${encodeURIComponent(id)}/return`, { note: values.note });
else if (group === 'wires' && action === 'outgoing')
  await callApi('GET', `/wires/outgoing${values.status ? `?status=${encodeURIComponent(values.status)}` : ''}`);
else if (group === 'wires' && action === 'sent' && id)
  await callApi('POST', `/wires/outgoing/${encodeURIComponent(id)}/sent`, values.note ? { note: values.note } : {});
else if (group === 'wires' && action === 'failed' && id && values.note)
  await callApi('POST', `/wires/outgoing/${encodeURIComponent(id)}/failed`, { note: values.note });
else if (group === 'liabilities' && action === 'compare') await compareLiabilities();
else {
  fail(
    'usage: npm run ops -- operators add --email E --role R | withdrawals list [--status N] | withdrawals process ID | withdrawals complete ID --tx HASH | withdrawals fail ID --reason TEXT' +
      ' | kyc list [--step S] [--status N] | kyc show USER_ID | kyc approve USER_ID [--step investor|aml|qualified|residence] | kyc reject USER_ID [--step investor|aml|qualified|residence] --reason TEXT' +
      ' | terms schedule --effective YYYY-MM-DD --title-en T --title-zh T --body-en B --body-zh B | terms list' +
      ' | limits list | limits set --level N --per-24h USD --per-month USD | alerts list [--status open|released|confirmed] | alerts release ID [--note TEXT] | alerts confirm ID --note TEXT' +
      ' | trusts list [--status claim] | trusts release ID --reference REF --note TEXT' +
      ' | wires record --reference REF --amount USD --sender NAME --bank-tx ID | wires list [--status CREDITED|SUSPENSE|RETURNED] | wires apply ID --reference REF --note TEXT | wires return ID --note TEXT | wires outgoing [--status PENDING|SENT|FAILED] | wires sent ID [--note TEXT] | wires failed ID --note TEXT' +
      ' | liabilities compare [--date YYYY-MM-DD]',
  );
}
