import { type Card, type CardTopUpCoin, type CardTopUpQuote, cardEndpoints } from '@meridian/contracts/cards';
import type { FormInstance } from 'antd';
import { useState } from 'react';
import { useSecuredAction } from '../../../hooks/use-secured-action.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { useInvalidateCards } from '../api/card-keys.ts';
import { useQuoteTopUp } from '../api/quote-top-up.ts';
import { secondsLeft } from '../lib/card-format.ts';
import { serverFieldErrors } from '../lib/form-refusals.ts';
import { useNow } from './use-now.ts';

/** The top-up form's values: the stablecoin paid and its amount (a decimal string). */
export interface TopUpValues {
  coin: CardTopUpCoin;
  amount: string;
}

/** Where a refused quote shows: the coin off its peg (214) on the coin, an amount refusal on the amount. */
const FIELD_OF_CODE: Partial<Record<number, (string | number)[]>> = { 214: ['coin'], 130: ['amount'], 132: ['amount'] };

/**
 * The card top-up's two steps. `ask(values)` asks a quote (a refusal is marked on the coin or the
 * amount, the rest in `error`); `quote` then counts down (`secondsLeft`, `isExpired` at 0);
 * `execute(quote)` opens the security check (CARD_TOPUP) with the quote id as the idempotency key,
 * so one quote tops up once; every refusal of the execution is shown in `error`. `isDone` after
 * success (the cards are refreshed). `reset()` on an edit of the form forgets the quote and the
 * errors.
 */
export function useTopUp(card: Card, form: FormInstance<TopUpValues>) {
  const quoteCall = useQuoteTopUp(card.id);
  const invalidate = useInvalidateCards();
  const [quote, setQuote] = useState<CardTopUpQuote | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [isDone, setDone] = useState(false);
  const nowMs = useNow(250, quote !== null && !isDone);
  const left = quote ? secondsLeft(quote.expiresAt, nowMs) : 0;

  const ask = (values: TopUpValues) => {
    setFormError(null);
    quoteCall.mutate(
      { coin: values.coin, amount: values.amount.trim() },
      {
        onSuccess: setQuote,
        onError: (error) => {
          if (!(error instanceof ApiError)) return setFormError(String(error));
          const refusal = serverFieldErrors(error.response, FIELD_OF_CODE);
          form.setFields(refusal.fields.map((e) => ({ name: e.name as never, errors: e.errors })));
          setFormError(refusal.message);
        },
      },
    );
  };

  const topUp = useSecuredAction({
    endpoint: cardEndpoints.topUp,
    quietSuccess: true,
    refusalsShownOn: 'form',
    // The quote is not a field: every refusal of its execution is shown above the button.
    fieldOf: () => undefined,
    onSuccess: () => {
      setDone(true);
      invalidate();
    },
  });

  const execute = (current: CardTopUpQuote) => {
    setFormError(null);
    // The quote id is the natural key: one quote tops up once, whatever is retried.
    topUp.run({ params: { id: card.id }, body: { quoteId: current.quoteId } }, { idempotencyKey: current.quoteId });
  };

  const reset = () => {
    setFormError(null);
    topUp.clearErrors();
    setQuote(null);
  };

  return {
    quote,
    secondsLeft: left,
    isExpired: quote !== null && left === 0,
    isDone,
    isQuoting: quoteCall.isPending,
    error: formError ?? topUp.error,
    ask,
    execute,
    reset,
  };
}
