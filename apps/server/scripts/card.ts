/**
 * `npm run card -- <command> [options]` — play a merchant against a running server's built-in
 * sandbox card processor, as `npm run deposit` plays custody. Every call is signed with
 * the processor's HMAC secret: CARD_WEBHOOK_SECRET, or the one the server generated in
 * DATA_DIR/secrets/card-webhook-secret. The sandbox routes exist outside production only.
 *
 *   authorize --card <id> --amount 12.50 --currency EUR --merchant "Example Books" --mcc 5734
 *             [--3ds] [--in-person] [--pin 1234] [--expiry MM/YY] [--no-wait]
 *       Prints the authorisation id and Meridian's decision. With --3ds (an online payment with
 *       3-D Secure) the answer is PENDING_CONFIRMATION: the user confirms in the app; the CLI polls
 *       every second until the answer is final (5 minutes at most, then DECLINED THREE_DS_FAILED),
 *       unless --no-wait.
 *   clear   --auth <authorizationId> [--amount 12.80] [--currency EUR]   (default: the authorised amount)
 *   reverse --auth <authorizationId>
 *   refund  --auth <authorizationId> --amount 5.00 [--currency EUR]
 *   status  --auth <authorizationId>
 *   stock   [--network VISA|MASTERCARD]   a pre-activated physical card to bind: number and code
 *
 * Options: --url (default PUBLIC_URL or http://localhost:$PORT). Exit code 0 when the call
 * succeeded (a decline is a success of the call), 1 when the server refused it, 2 on bad usage.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { CARD_CONFIRMATION_TTL_MS, HEADER_CARD_SIGNATURE } from '@meridian/contracts/cards';
import { loadConfig } from '../src/config.ts';
import { signCardWebhook } from '../src/modules/cards/cards.processor.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    card: { type: 'string' },
    amount: { type: 'string' },
    currency: { type: 'string', default: 'USD' },
    merchant: { type: 'string', default: 'Sandbox Merchant' },
    mcc: { type: 'string', default: '5734' },
    '3ds': { type: 'boolean', default: false },
    'in-person': { type: 'boolean', default: false },
    pin: { type: 'string' },
    expiry: { type: 'string' },
    'no-wait': { type: 'boolean', default: false },
    auth: { type: 'string' },
    network: { type: 'string', default: 'VISA' },
    url: { type: 'string' },
  },
});

function fail(message: string, code = 2): never {
  console.error(message);
  process.exit(code);
}

const config = loadConfig();
const secretPath = join(config.dataDir, 'secrets', 'card-webhook-secret');
const secret =
  config.cards.webhookSecret ?? (existsSync(secretPath) ? readFileSync(secretPath, 'utf8').trim() : undefined);
if (!secret)
  fail(`No card webhook secret: set CARD_WEBHOOK_SECRET or start the server once so that it creates ${secretPath}.`);
const baseUrl = (values.url ?? config.publicUrl).replace(/\/$/, '');

interface Envelope {
  statusCode: number;
  content: Record<string, unknown>;
  message: string;
}

async function signedPost(path: string, body: object): Promise<Envelope> {
  const raw = JSON.stringify(body);
  const response = await fetch(`${baseUrl}/api/card/sandbox${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', [HEADER_CARD_SIGNATURE]: signCardWebhook(secret!, raw) },
    body: raw,
  });
  const answer = (await response.json()) as Envelope;
  if (answer.statusCode !== 200) fail(`${path}: ${answer.statusCode} ${answer.message}`, 1);
  return answer;
}

function print(content: Record<string, unknown>): void {
  console.log(JSON.stringify(content));
}

const requireValue = (name: 'card' | 'amount' | 'auth'): string =>
  values[name] ?? fail(`--${name} is required for ${positionals[0] ?? 'this command'}`);

switch (positionals[0]) {
  case 'authorize': {
    const answer = await signedPost('/authorize', {
      card: Number(requireValue('card')),
      amount: requireValue('amount'),
      currency: values.currency,
      merchantName: values.merchant,
      mcc: values.mcc,
      isOnline: !values['in-person'],
      isThreeDs: values['3ds'],
      ...(values.pin !== undefined && { pin: values.pin }),
      ...(values.expiry !== undefined && { expiry: values.expiry }),
    });
    print(answer.content);
    if (answer.content.decision !== 'PENDING_CONFIRMATION' || values['no-wait']) break;
    console.error('Waiting for the cardholder to confirm in the app (5 minutes at most)…');
    const deadline = Date.now() + CARD_CONFIRMATION_TTL_MS + 35_000;
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const state = await signedPost('/authorization', { authorizationId: answer.content.authorizationId });
      if (state.content.status !== 'PENDING_CONFIRMATION' || Date.now() > deadline) {
        print(state.content);
        break;
      }
    }
    break;
  }
  case 'clear':
    print(
      (
        await signedPost('/clear', {
          authorizationId: requireValue('auth'),
          ...(values.amount !== undefined && { amount: values.amount, currency: values.currency }),
        })
      ).content,
    );
    break;
  case 'reverse':
    print((await signedPost('/reverse', { authorizationId: requireValue('auth') })).content);
    break;
  case 'refund':
    print(
      (
        await signedPost('/refund', {
          authorizationId: requireValue('auth'),
          amount: requireValue('amount'),
          ...(process.argv.includes('--currency') && { currency: values.currency }),
        })
      ).content,
    );
    break;
  case 'status':
    print((await signedPost('/authorization', { authorizationId: requireValue('auth') })).content);
    break;
  case 'stock':
    print((await signedPost('/stock', { network: values.network })).content);
    break;
  default:
    fail(
      'usage: npm run card -- authorize --card <id> --amount 12.50 --currency EUR --merchant "…" --mcc 5734 [--3ds]\n' +
        '       npm run card -- clear|reverse|refund|status --auth <authorizationId> [--amount …]\n' +
        '       npm run card -- stock [--network VISA|MASTERCARD]',
    );
}
