import { createHmac, timingSafeEqual } from 'node:crypto';
import { businessMessage } from '@meridian/contracts/codes';
import {
  CUSTODY_WEBHOOK_TOLERANCE_MS,
  custodyEndpoints,
  HEADER_CUSTODY_SIGNATURE,
  walletEndpoints,
} from '@meridian/contracts/wallet';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { currentUser, sensitiveActionOf } from '../../platform/http/auth.ts';
import { registerEndpoint, registerEndpoints } from '../../platform/http/endpoint.ts';
import { idempotencyKeyOf, idempotentAnswerOf } from '../../platform/http/idempotency.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { requestLocale } from '../../platform/http/locale.ts';
import type { WalletService } from './wallet.service.ts';

/** What the wallet routes need besides the service. */
export interface WalletRoutesOptions {
  wallet: WalletService;
  /** HMAC-SHA256 key of the custody webhook. */
  custodyWebhookSecret: string;
  /** Serve the signed address look-up of the deposit CLI (never in production). */
  isAddressLookupEnabled: boolean;
  /** The app's clock: the custody webhook's `sentAt` must be within the tolerance of it. */
  clock: () => Date;
}

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
    request.log.warn(
      { deliveryHeader: typeof header === 'string' ? header.slice(0, 16) : null },
      'custody webhook refused: bad signature',
    );
    throw new DomainError('WEBHOOK_SIGNATURE_INVALID');
  }
}

/**
 * A withdrawal over the limit (150) is a refusal of the `amount` field: its content names the field
 * with the message in the caller's language, as a validation failure does, so the page shows it
 * under the amount. Any other error passes unchanged.
 */
async function withLimitOnAmount<T>(request: FastifyRequest, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (!(error instanceof DomainError) || error.code !== 'WITHDRAW_LIMIT_EXCEEDED') throw error;
    const message = businessMessage(error.code, requestLocale(request), error.params);
    throw new DomainError(error.code, error.params, {
      ...(error.content as object),
      fields: [{ field: 'amount', message }],
    });
  }
}

/**
 * HTTP routes of the wallet (coinlist, wallet/*, account/balance) and the custody webhook,
 * mounted under /api (the operator API is the admin module's).
 */
export function walletRoutes(options: WalletRoutesOptions) {
  const { wallet } = options;
  const now = options.clock;
  return async function register(app: FastifyInstance): Promise<void> {
    const balances = async (request: FastifyRequest) => wallet.balances(currentUser(request).userId);
    registerEndpoints(app, walletEndpoints, {
      listCoins: async () => wallet.listCoins(),
      coinConfig: async () => wallet.listCoins(),
      listNetworks: async (request) => wallet.listNetworks(request.query.coin),
      depositAddress: async (request) =>
        wallet.depositAddress(currentUser(request).userId, request.query.coin, request.query.net),
      balance: balances,
      accountBalance: balances,
      overview: balances,
      withdraw: async (request) =>
        withLimitOnAmount(request, () =>
          wallet.requestWithdrawal(
            currentUser(request).userId,
            request.body,
            idempotencyKeyOf(request),
            sensitiveActionOf(request),
            {
              isAddressBookOnly: currentUser(request).apiKey !== undefined,
              settleAnswer: idempotentAnswerOf(request),
            },
          ),
        ),
      checkWithdrawal: async (request) =>
        withLimitOnAmount(request, () =>
          wallet.checkWithdrawal(currentUser(request).userId, request.body, {
            isAddressBookOnly: currentUser(request).apiKey !== undefined,
          }),
        ),
      withdrawLimits: async (request) => wallet.withdrawLimits(currentUser(request).userId),
      cancelWithdrawal: async (request) => wallet.cancelWithdrawal(currentUser(request).userId, request.params.id),
      listRecords: async (request) => wallet.records(currentUser(request).userId, request.query),
      listAddressBook: async (request) => wallet.listAddressBook(currentUser(request).userId),
      addAddress: async (request) =>
        wallet.addAddress(currentUser(request).userId, request.body, sensitiveActionOf(request)),
      deleteAddress: async (request) => {
        await wallet.deleteAddress(currentUser(request).userId, request.params.id);
        return null;
      },
    });

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
      registerEndpoint(
        custody,
        custodyEndpoints.webhook,
        async (request) => {
          const sentAtMs = Date.parse(request.body.sentAt);
          if (Math.abs(now().getTime() - sentAtMs) > CUSTODY_WEBHOOK_TOLERANCE_MS) {
            request.log.warn(
              { deliveryId: request.body.deliveryId, sentAt: request.body.sentAt },
              'custody webhook refused: timestamp outside 5 minutes',
            );
            throw new DomainError('WEBHOOK_SIGNATURE_INVALID');
          }
          try {
            return await wallet.handleCustodyDelivery(request.body);
          } catch (error) {
            request.log.warn(
              { err: error, deliveryId: request.body.deliveryId, event: request.body.event },
              'custody webhook refused',
            );
            throw error;
          }
        },
        { csrf: false },
      );
      if (options.isAddressLookupEnabled) {
        registerEndpoint(
          custody,
          custodyEndpoints.addressLookup,
          async (request) => wallet.depositAddressByEmail(request.body.email, request.body.coin, request.body.network),
          { csrf: false },
        );
      }
    });
  };
}
