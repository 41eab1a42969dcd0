import { opsCardEndpoints } from '@meridian/contracts/card-ops';
import {
  cardEndpoints,
  cardProcessorEndpoints,
  cardSandboxEndpoints,
  HEADER_CARD_SIGNATURE,
} from '@meridian/contracts/cards';
import { corporateCardEndpoints } from '@meridian/contracts/corporate';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { noteAudit } from '../../platform/http/audit.ts';
import { currentOperator, currentUser, sensitiveActionOf } from '../../platform/http/auth.ts';
import { registerEndpoint, registerEndpoints } from '../../platform/http/endpoint.ts';
import { idempotentAnswerOf, idempotencyKeyOf } from '../../platform/http/idempotency.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { isCardWebhookSignatureValid } from './cards.processor.ts';
import type { SandboxProcessor } from './cards.sandbox.ts';
import type { CardsService } from './cards.service.ts';

/** Raw bodies of the signed routes, kept for the signature check (encapsulated parser below). */
const rawBodies = new WeakMap<FastifyRequest, string>();

function signatureOf(request: FastifyRequest): string | undefined {
  const header = request.headers[HEADER_CARD_SIGNATURE.toLowerCase()];
  return typeof header === 'string' ? header : undefined;
}

/** What the card routes need. */
export interface CardsRoutesOptions {
  cards: CardsService;
  /** HMAC-SHA256 key of the processor's webhook (and of the sandbox's merchant calls). */
  webhookSecret: string;
  /** The built-in sandbox processor when it is the processor in use, outside production: its merchant routes. */
  sandbox: SandboxProcessor | null;
}

/**
 * The card routes under /api: the holder's calls (`cardEndpoints`), the processor's signed webhook
 * (`cardProcessorEndpoints`: no session, no CSRF header; the signature is checked over the raw body
 * before anything is read), and the sandbox network's merchant calls for `npm run card` (signed the
 * same way; never in production).
 */
export function cardsRoutes(options: CardsRoutesOptions) {
  const { cards, sandbox } = options;
  return async function register(app: FastifyInstance): Promise<void> {
    const userId = (request: FastifyRequest) => currentUser(request).userId;
    registerEndpoints(app, cardEndpoints, {
      getConfig: async (request) => cards.config(userId(request)),
      listCards: async (request) => cards.list(userId(request)),
      applyCard: async (request) => {
        const { mfaCode: _m, emailCaptcha: _e, securityPassword: _s, ...input } = request.body;
        return cards.apply(
          userId(request),
          input,
          idempotencyKeyOf(request),
          sensitiveActionOf(request),
          idempotentAnswerOf(request),
        );
      },
      bindCard: async (request) => cards.bind(userId(request), request.body),
      getCard: async (request) => cards.detail(userId(request), request.params.id),
      quoteTopUp: async (request) =>
        cards.quoteTopUp(userId(request), request.params.id, request.body.coin, request.body.amountMinor),
      topUp: async (request) =>
        cards.topUp(
          userId(request),
          request.params.id,
          request.body.quoteId,
          idempotencyKeyOf(request),
          sensitiveActionOf(request),
          idempotentAnswerOf(request),
        ),
      setLock: async (request) => cards.setLock(userId(request), request.params.id, request.body.isLocked),
      revealCard: async (request) => cards.reveal(userId(request), request.params.id, sensitiveActionOf(request)),
      setPin: async (request) =>
        cards.setPin(userId(request), request.params.id, request.body.pin, sensitiveActionOf(request)),
      getSpendRules: async (request) => cards.getRules(userId(request), request.params.id),
      setSpendRules: async (request) => cards.setRules(userId(request), request.params.id, request.body),
      listTransactions: async (request) => cards.transactions(userId(request), request.params.id, request.query),
      requestLimitChange: async (request) => cards.requestLimitChange(userId(request), request.params.id, request.body),
      listConfirmations: async (request) => cards.listConfirmations(userId(request)),
      confirmPayment: async (request) => cards.confirm(userId(request), request.params.id, request.body.isApproved),
    });

    // Employee cards of PRO accounts (`cards.corporate.ts`).
    registerEndpoints(app, corporateCardEndpoints, {
      issueEmployeeCard: async (request) => {
        const { mfaCode: _m, emailCaptcha: _e, securityPassword: _s, passkey: _p, ...input } = request.body;
        return cards.issueEmployeeCard(
          userId(request),
          input,
          idempotencyKeyOf(request),
          sensitiveActionOf(request),
          idempotentAnswerOf(request),
        );
      },
    });
    registerEndpoints(app, opsCardEndpoints, {
      listLimitRequests: async (request) => cards.ops.listLimitRequests(request.query),
      decideLimitRequest: async (request) => {
        noteAudit(request, {
          targetType: 'card-limit-request',
          targetId: request.params.id,
          reason: request.body.reply,
        });
        const { before, after } = await cards.ops.decideLimitRequest(
          Number(request.params.id),
          request.body,
          currentOperator(request).email,
        );
        noteAudit(request, { before, after });
        return after;
      },
      listCards: async (request) => cards.ops.listCards(request.query),
      setCardStatus: async (request) => {
        noteAudit(request, { targetType: 'card', targetId: request.params.id, reason: request.body.note ?? null });
        const { before, after } = await cards.ops.stepCard(Number(request.params.id), request.body.status);
        noteAudit(request, { before, after });
        return after;
      },
      unblockPin: async (request) => {
        noteAudit(request, { targetType: 'card', targetId: request.params.id });
        const { before, after } = await cards.ops.unblockPin(Number(request.params.id));
        noteAudit(request, { before, after });
        return after;
      },
      listSuspense: async (request) => cards.ops.listSuspense(request.query),
      resolveSuspense: async (request) => {
        noteAudit(request, {
          targetType: 'card-suspense',
          targetId: request.params.id,
          reason: request.body.note,
        });
        const { before, after } = await cards.ops.resolveSuspense(
          Number(request.params.id),
          request.body.resolution,
          request.body.note,
        );
        noteAudit(request, { before, after });
        return after;
      },
    });

    await app.register(async (signed) => {
      signed.removeContentTypeParser('application/json');
      signed.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
        const text = typeof body === 'string' ? body : body.toString('utf8');
        rawBodies.set(request, text);
        try {
          done(null, JSON.parse(text));
        } catch {
          done(new DomainError('BAD_REQUEST'), undefined);
        }
      });
      signed.addHook('preValidation', async (request) => {
        const raw = rawBodies.get(request);
        if (raw === undefined || !isCardWebhookSignatureValid(options.webhookSecret, raw, signatureOf(request))) {
          request.log.warn({ url: request.url }, 'card webhook refused: bad signature');
          throw new DomainError('WEBHOOK_SIGNATURE_INVALID');
        }
      });
      registerEndpoint(signed, cardProcessorEndpoints.webhook, async (request) => cards.handleWebhook(request.body), {
        csrf: false,
      });
      if (!sandbox) return;
      const tokenOf = async (cardId: number) => {
        const token = await cards.tokenOf(cardId);
        if (!token) throw new DomainError('NOT_FOUND');
        return token;
      };
      registerEndpoints(signed, cardSandboxEndpoints, {
        authorize: [
          async (request) => {
            const { card, ...rest } = request.body;
            return sandbox.authorize({ token: await tokenOf(card), ...rest });
          },
          { csrf: false },
        ],
        authorization: [
          async (request) => {
            await cards.expireConfirmations();
            const row = await sandbox.authorization(request.body.authorizationId);
            return {
              authorizationId: row.id,
              status: row.status,
              declineReason: row.declineReason as never,
              amount: row.amount,
              currency: row.currency,
            };
          },
          { csrf: false },
        ],
        clear: [
          async (request) => ({
            authorizationId: request.body.authorizationId,
            ...(await sandbox.clear(request.body.authorizationId, request.body.amount, request.body.currency)),
          }),
          { csrf: false },
        ],
        reverse: [
          async (request) => ({
            authorizationId: request.body.authorizationId,
            ...(await sandbox.reverse(request.body.authorizationId)),
          }),
          { csrf: false },
        ],
        refund: [
          async (request) => ({
            authorizationId: request.body.authorizationId,
            ...(await sandbox.refund(request.body.authorizationId, request.body.amount, request.body.currency)),
          }),
          { csrf: false },
        ],
        stock: [
          async (request) => {
            const stocked = await sandbox.stockCard(request.body.network);
            return { cardNumber: stocked.pan, activationCode: stocked.activationCode };
          },
          { csrf: false },
        ],
      });
    });
  };
}
