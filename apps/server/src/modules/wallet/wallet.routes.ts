import { createHmac, timingSafeEqual } from 'node:crypto';
import { envelopeSchema } from '@meridian/contracts/envelope';
import { HEADER_IDEMPOTENCY_KEY } from '@meridian/contracts/http';
import { assetCodeSchema } from '@meridian/contracts/money';
import {
  addressBookAddBodySchema,
  addressBookEntrySchema,
  addressBookListSchema,
  balanceContentSchema,
  coinListContentSchema,
  CUSTODY_WEBHOOK_TOLERANCE_MS,
  custodyWebhookBodySchema,
  custodyWebhookContentSchema,
  depositAddressContentSchema,
  depositAddressQuerySchema,
  HEADER_CUSTODY_SIGNATURE,
  idParamSchema,
  networkListContentSchema,
  networkQuerySchema,
  walletRecordPageSchema,
  walletRecordQuerySchema,
  walletRecordSchema,
  withdrawBodySchema,
  withdrawCheckBodySchema,
  withdrawCheckContentSchema,
} from '@meridian/contracts/wallet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { currentUser, sensitiveActionOf } from '../../platform/http/auth.ts';
import { ok } from '../../platform/http/envelope.ts';
import { DomainError, FieldError } from '../../platform/http/errors.ts';
import type { WalletService } from './wallet.service.ts';

/** What the wallet routes need besides the service. */
export interface WalletRoutesOptions {
  wallet: WalletService;
  /** HMAC-SHA256 key of the custody webhook. */
  custodyWebhookSecret: string;
  /** Serve the signed address look-up of the deposit CLI (never in production). */
  isAddressLookupEnabled: boolean;
  clock?: () => Date;
}

const IDEMPOTENCY_KEY_PATTERN = /^[\w.:-]{1,128}$/;

/** Raw bodies of the custody routes, kept for the signature check (encapsulated parser below). */
const rawBodies = new WeakMap<FastifyRequest, string>();

/** Compute the signature header value of a custody webhook body: `sha256=<hex HMAC-SHA256>`. */
export function signCustodyBody(secret: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

function verifySignature(secret: string, request: FastifyRequest): void {
  const raw = rawBodies.get(request);
  const header = request.headers[HEADER_CUSTODY_SIGNATURE.toLowerCase()];
  const expected = Buffer.from(signCustodyBody(secret, raw ?? ''));
  const given = Buffer.from(typeof header === 'string' ? header : '');
  if (raw === undefined || given.length !== expected.length || !timingSafeEqual(given, expected)) {
    request.log.warn({ deliveryHeader: typeof header === 'string' ? header.slice(0, 16) : null }, 'custody webhook refused: bad signature');
    throw new DomainError('WEBHOOK_SIGNATURE_INVALID');
  }
}

function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const value = request.headers[HEADER_IDEMPOTENCY_KEY.toLowerCase()];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !IDEMPOTENCY_KEY_PATTERN.test(value)) throw new FieldError(HEADER_IDEMPOTENCY_KEY, 'validation.unknownField');
  return value;
}

/**
 * HTTP routes of the wallet (spec §7 coinlist, wallet/*, account/balance) and the custody webhook,
 * mounted under /api (the operator API is the admin module's).
 */
export function walletRoutes(options: WalletRoutesOptions) {
  const { wallet } = options;
  const now = options.clock ?? (() => new Date());
  return async function register(app: FastifyInstance): Promise<void> {
    const routes = app.withTypeProvider<ZodTypeProvider>();
    const tags = ['wallet'];

    routes.get('/coinlist', { schema: { tags, summary: 'Wallet coins with their networks', response: { 200: envelopeSchema(coinListContentSchema) } } }, async (request) =>
      ok(request, await wallet.listCoins()),
    );
    routes.get('/wallet/coin/config', { schema: { tags, summary: 'Coins with network limits, fees and switches', response: { 200: envelopeSchema(coinListContentSchema) } } }, async (request) =>
      ok(request, await wallet.listCoins()),
    );
    routes.get(
      '/wallet/network',
      { schema: { tags, summary: 'Networks of one coin', querystring: networkQuerySchema, response: { 200: envelopeSchema(networkListContentSchema) } } },
      async (request) => ok(request, await wallet.listNetworks(request.query.coin)),
    );
    routes.get(
      '/wallet/address',
      { config: { auth: 'user' }, schema: { tags, summary: 'The deposit address of a coin on a network', querystring: depositAddressQuerySchema, response: { 200: envelopeSchema(depositAddressContentSchema) } } },
      async (request) => ok(request, await wallet.depositAddress(currentUser(request).userId, request.query.coin, request.query.net)),
    );
    for (const url of ['/wallet/balance', '/account/balance', '/wallet/overview']) {
      routes.get(url, { config: { auth: 'user' }, schema: { tags, summary: 'Balances per coin (available, frozen) valued in USD', response: { 200: envelopeSchema(balanceContentSchema) } } }, async (request) =>
        ok(request, await wallet.balances(currentUser(request).userId)),
      );
    }
    routes.post(
      '/wallet/withdraw',
      {
        config: { auth: 'user', sensitiveAction: 'WITHDRAW', kyc: 'basic' },
        schema: { tags, summary: 'Withdraw (api-version 2.0); Idempotency-Key header honoured', body: withdrawBodySchema, response: { 200: envelopeSchema(walletRecordSchema) } },
      },
      async (request) => {
        const idempotencyKey = idempotencyKeyOf(request);
        const factors = sensitiveActionOf(request);
        return ok(request, await wallet.requestWithdrawal(currentUser(request).userId, request.body, idempotencyKey, factors));
      },
    );
    routes.post(
      '/wallet/withdraw/check',
      {
        config: { auth: 'user', kyc: 'basic' },
        schema: { tags, summary: 'Dry run of a withdrawal: every check, nothing recorded, no code asked', body: withdrawCheckBodySchema, response: { 200: envelopeSchema(withdrawCheckContentSchema) } },
      },
      async (request) => ok(request, await wallet.checkWithdrawal(currentUser(request).userId, request.body)),
    );
    routes.post(
      '/wallet/withdraw/:id/cancel',
      { config: { auth: 'user' }, schema: { tags, summary: 'Cancel a waiting withdrawal', params: idParamSchema, response: { 200: envelopeSchema(walletRecordSchema) } } },
      async (request) => ok(request, await wallet.cancelWithdrawal(currentUser(request).userId, request.params.id)),
    );
    routes.get(
      '/wallet/record',
      { config: { auth: 'user' }, schema: { tags, summary: 'Deposit or withdrawal history, filtered and paged', querystring: walletRecordQuerySchema, response: { 200: envelopeSchema(walletRecordPageSchema) } } },
      async (request) => ok(request, await wallet.records(currentUser(request).userId, request.query)),
    );
    routes.get('/wallet/addressbook', { config: { auth: 'user' }, schema: { tags, summary: 'Saved withdrawal addresses', response: { 200: envelopeSchema(addressBookListSchema) } } }, async (request) =>
      ok(request, await wallet.listAddressBook(currentUser(request).userId)),
    );
    routes.post(
      '/wallet/addressbook',
      {
        config: { auth: 'user', sensitiveAction: 'WITHDRAW_ADDRESS_ADD' },
        schema: { tags, summary: 'Save a withdrawal address (security check)', body: addressBookAddBodySchema, response: { 200: envelopeSchema(addressBookEntrySchema) } },
      },
      async (request) => {
        const factors = sensitiveActionOf(request);
        return ok(request, await wallet.addAddress(currentUser(request).userId, request.body, factors));
      },
    );
    routes.delete(
      '/wallet/addressbook/:id',
      { config: { auth: 'user' }, schema: { tags, summary: 'Delete a saved address', params: idParamSchema, response: { 200: envelopeSchema(z.null()) } } },
      async (request) => {
        await wallet.deleteAddress(currentUser(request).userId, request.params.id);
        return ok(request, null);
      },
    );

    // Custody (machine callers, HMAC-signed raw body): an encapsulated context with a raw-body parser.
    await app.register(async (custody) => {
      custody.removeContentTypeParser('application/json');
      custody.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
        const text = typeof body === 'string' ? body : body.toString('utf8');
        rawBodies.set(request, text);
        try {
          done(null, JSON.parse(text));
        } catch {
          done(new DomainError('BAD_REQUEST'), undefined);
        }
      });
      custody.addHook('preValidation', async (request) => verifySignature(options.custodyWebhookSecret, request));
      const signed = custody.withTypeProvider<ZodTypeProvider>();
      signed.post(
        '/custody/webhook',
        {
          config: { csrf: false },
          schema: { tags: ['custody'], summary: `Custody webhook, signed: ${HEADER_CUSTODY_SIGNATURE}: sha256=<HMAC-SHA256 of the raw body>`, body: custodyWebhookBodySchema, response: { 200: envelopeSchema(custodyWebhookContentSchema) } },
        },
        async (request) => {
          const sentAtMs = Date.parse(request.body.sentAt);
          if (Math.abs(now().getTime() - sentAtMs) > CUSTODY_WEBHOOK_TOLERANCE_MS) {
            request.log.warn({ deliveryId: request.body.deliveryId, sentAt: request.body.sentAt }, 'custody webhook refused: timestamp outside 5 minutes');
            throw new DomainError('WEBHOOK_SIGNATURE_INVALID');
          }
          try {
            return ok(request, await wallet.handleCustodyDelivery(request.body));
          } catch (error) {
            request.log.warn({ err: error, deliveryId: request.body.deliveryId, event: request.body.event }, 'custody webhook refused');
            throw error;
          }
        },
      );
      if (options.isAddressLookupEnabled) {
        signed.post(
          '/custody/address-lookup',
          {
            config: { csrf: false },
            schema: {
              hide: true,
              body: z.object({ email: z.email(), coin: assetCodeSchema, network: z.string().min(1).max(32) }),
              response: { 200: envelopeSchema(depositAddressContentSchema) },
            },
          },
          async (request) => ok(request, await wallet.depositAddressByEmail(request.body.email, request.body.coin, request.body.network)),
        );
      }
    });
  };
}
