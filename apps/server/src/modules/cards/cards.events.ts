import {
  CARD_WEBHOOK_TOLERANCE_MS,
  type CardProcessorEvent,
  type CardWebhookAnswer,
  cardWebhookBodySchema,
} from '@meridian/contracts/cards';
import { eq } from 'drizzle-orm';
import { DomainError } from '../../platform/http/errors.ts';
import { type CardsDeps } from './cards.internal.ts';
import { isCardWebhookSignatureValid } from './cards.processor.ts';
import { cards } from './cards.tables.ts';
import { createCardAuthorisations } from './cards.authorisations.ts';
import { createCardSettlements } from './cards.settlements.ts';
import { createCardConfirmations } from './cards.confirmations.ts';

/**
 * The processor's side of cards: the signed webhook, the authorisation decision (the hot
 * path), 3-D Secure / "ask me above X" confirmations, clearing, reversal and refund. Every decision
 * runs in one transaction holding the card row's lock (`SELECT … FOR UPDATE`), so decisions on one
 * card are serial: concurrent authorisations never overspend, and the same authorisation delivered
 * twice finds its row (unique processor id) and answers the same decision with one hold.
 *
 * The parts: `cards.authorisations.ts` (the decision), `cards.settlements.ts` (clearing,
 * reversal, refund, suspense) and `cards.confirmations.ts`; this file reads the webhook and
 * dispatches its event.
 */
export function createCardEventsService(deps: CardsDeps) {
  const { db } = deps;
  const { authorize } = createCardAuthorisations(deps);
  const { clear, reverse, refund } = createCardSettlements(deps);

  /** Dispatch one parsed processor event. */
  async function handleEvent(event: CardProcessorEvent): Promise<CardWebhookAnswer> {
    switch (event.type) {
      case 'authorization':
        return authorize(event);
      case 'clearing':
        return clear(event);
      case 'reversal':
        return reverse(event);
      case 'refund':
        return refund(event);
    }
  }

  return {
    ...createCardConfirmations(deps),

    /**
     * A webhook as it arrived: the signature over the raw body is checked first (constant time),
     * then the body is read and `sentAt` must be within 5 minutes of the clock.
     * @throws DomainError WEBHOOK_SIGNATURE_INVALID (a bad or missing signature: nothing is read), BAD_REQUEST
     */
    async handleSignedWebhook(rawBody: string, signature: string | undefined): Promise<CardWebhookAnswer> {
      if (!isCardWebhookSignatureValid(deps.webhookSecret, rawBody, signature)) {
        deps.log.warn({ signature: signature?.slice(0, 16) ?? null }, 'card webhook refused: bad signature');
        throw new DomainError('WEBHOOK_SIGNATURE_INVALID');
      }
      let json: unknown;
      try {
        json = JSON.parse(rawBody);
      } catch {
        throw new DomainError('BAD_REQUEST');
      }
      const parsed = cardWebhookBodySchema.safeParse(json);
      if (!parsed.success) throw new DomainError('BAD_REQUEST');
      return this.handleWebhook(parsed.data);
    },

    /**
     * A webhook whose signature the route checked: `sentAt` within 5 minutes, then the event.
     * @throws DomainError BAD_REQUEST for a stale or future `sentAt`
     */
    async handleWebhook(body: { sentAt: string; event: CardProcessorEvent }): Promise<CardWebhookAnswer> {
      const skewMs = Math.abs(new Date(body.sentAt).getTime() - deps.now().getTime());
      if (!(skewMs <= CARD_WEBHOOK_TOLERANCE_MS)) throw new DomainError('BAD_REQUEST');
      return handleEvent(body.event);
    },

    /** Lift a PIN block (an operator). */
    async unblockPin(cardId: number): Promise<void> {
      await db
        .update(cards)
        .set({ pinBlockedUntil: null, pinWrongCount: 0, updatedAt: deps.now() })
        .where(eq(cards.id, cardId));
    },
  };
}

/** The processor-facing part of the cards service. */
export type CardEventsService = ReturnType<typeof createCardEventsService>;
