/**
 * `npm run deposit -- --email a@b.c --coin USDT --network TRC20 --amount 250`
 *
 * Sign and send the custody webhook of a deposit, as the custody provider would, to a running
 * server (demos and tests). The address is looked up by email through the signed
 * `custody/address-lookup` route (outside production only); give `--address` to skip that.
 *
 * Options: --url (default PUBLIC_URL or http://localhost:$PORT), --confirmations (default the
 * network's requirement, so the deposit is credited at once), --tx (default random), --index (0),
 * --from (the source address; one on a sanctions list freezes the deposit for review).
 * The secret is CUSTODY_WEBHOOK_SECRET, or the one the server generated in DATA_DIR/secrets.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.ts';
import { signCustodyBody } from '../src/modules/wallet/wallet.routes.ts';

const { values } = parseArgs({
  options: {
    email: { type: 'string' },
    address: { type: 'string' },
    coin: { type: 'string' },
    network: { type: 'string' },
    amount: { type: 'string' },
    confirmations: { type: 'string' },
    tx: { type: 'string' },
    index: { type: 'string', default: '0' },
    url: { type: 'string' },
    from: { type: 'string' },
  },
});

function fail(message: string): never {
  console.error(message);
  process.exit(2);
}

const config = loadConfig();
const secretPath = join(config.dataDir, 'secrets', 'custody-webhook-secret');
const secret =
  config.wallet.custodyWebhookSecret ?? (existsSync(secretPath) ? readFileSync(secretPath, 'utf8').trim() : undefined);
if (!secret)
  fail(`No webhook secret: set CUSTODY_WEBHOOK_SECRET or start the server once so that it creates ${secretPath}.`);
const { coin, network, amount } = values;
if (!coin || !network || !amount || (!values.email && !values.address))
  fail(
    'usage: npm run deposit -- --email a@b.c --coin USDT --network TRC20 --amount 250 [--confirmations N] [--tx HASH] [--url URL]',
  );
const baseUrl = (values.url ?? config.publicUrl).replace(/\/$/, '');

async function signedPost(
  path: string,
  body: object,
): Promise<{ statusCode: number; content: unknown; message: string }> {
  const raw = JSON.stringify(body);
  const response = await fetch(`${baseUrl}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-custody-signature': signCustodyBody(secret!, raw) },
    body: raw,
  });
  return (await response.json()) as { statusCode: number; content: unknown; message: string };
}

let address = values.address;
if (!address) {
  const lookup = await signedPost('/custody/address-lookup', { email: values.email, coin, network });
  if (lookup.statusCode !== 200) fail(`address look-up failed: ${lookup.statusCode} ${lookup.message}`);
  address = (lookup.content as { address: string }).address;
}
let confirmations = values.confirmations === undefined ? undefined : Number(values.confirmations);
if (confirmations === undefined) {
  const nets = (await (await fetch(`${baseUrl}/api/wallet/network?coin=${encodeURIComponent(coin)}`)).json()) as {
    content: { network: string; confirmationsRequired: number }[];
  };
  confirmations = nets.content.find((n) => n.network === network)?.confirmationsRequired ?? 0;
}
const result = await signedPost('/custody/webhook', {
  deliveryId: randomUUID(),
  sentAt: new Date().toISOString(),
  event: {
    type: 'deposit',
    network,
    coin,
    address,
    txHash: values.tx ?? `demo-${randomUUID()}`,
    outputIndex: Number(values.index),
    amount,
    confirmations,
    ...(values.from ? { fromAddress: values.from } : {}),
  },
});
console.log(JSON.stringify({ address, ...result }, null, 2));
process.exitCode = result.statusCode === 200 ? 0 : 1;
