import type { ExchangeRateQuery, SwapRecord, SwapSide } from '@meridian/contracts/exchange';
import type { MarketCoinCode } from '@meridian/contracts/market';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { ApiError } from '../../../lib/api-client.ts';
import { useCreateFlashExchange } from '../api/create-flash-exchange.ts';
import { useCreateSwap } from '../api/create-swap.ts';
import { exchangeKeys } from '../api/exchange-keys.ts';
import { useExchangeQuote } from '../api/get-exchange-quote.ts';
import {
  checkSwapAmount,
  exceedsAvailable,
  type ExchangeMode,
  secondsLeft,
  type SwapAmountProblem,
} from '../lib/swap-form.ts';
import { useNow } from './use-now.ts';

/** Business code of an expired quote (its message: 'This quote has expired, please get a new quote'). */
const QUOTE_EXPIRED_CODE = 131;
const COUNTDOWN_TICK_MS = 250;

/** What the user has chosen in the swap form. */
export interface ExchangeOrderInput {
  mode: ExchangeMode;
  from: MarketCoinCode;
  to: MarketCoinCode;
  /** The side the amount was typed on. */
  side: SwapSide;
  amountText: string;
  /** The from-coin's available balance (wire decimal); undefined for a guest or before it loads. */
  available: string | undefined;
  /** The flash exchange's maximum slippage in basis points; undefined when invalid. */
  slippageBps: number | undefined;
}

const isSameQuery = (a: ExchangeRateQuery, b: ExchangeRateQuery) =>
  a.from === b.from && a.to === b.to && a.side === b.side && a.amount === b.amount;

/**
 * The quote and execution of one exchange: the amount checked, a quote asked on request
 * (`useExchangeQuote`) with its countdown, renewed when it runs out in flash mode; its execution as
 * a swap or a flash exchange (mutations); the done exchange's record.
 */
export function useExchangeOrder({ mode, from, to, side, amountText, available, slippageBps }: ExchangeOrderInput) {
  const queryClient = useQueryClient();
  const swap = useCreateSwap();
  const flash = useCreateFlashExchange();
  const [problem, setProblem] = useState<SwapAmountProblem | null>(null);
  const [quoteQuery, setQuoteQuery] = useState<ExchangeRateQuery | null>(null);
  const [expiredQuoteId, setExpiredQuoteId] = useState<string | null>(null);
  const [result, setResult] = useState<SwapRecord | null>(null);
  // One id per flash attempt: a retry of the same attempt can never exchange twice (server replay).
  const flashRequestId = useRef<string>(crypto.randomUUID());

  const quote = useExchangeQuote(quoteQuery);
  // A refused quote shows no quote, only the server's words (below the minimum, no price …).
  const held = quote.isSuccess ? quote.data : null;
  const serverMessage = quote.error instanceof ApiError ? quote.error.response.message : null;
  const isExecuting = swap.isPending || flash.isPending;
  const nowMs = useNow(COUNTDOWN_TICK_MS, held !== null);
  const seconds = held ? secondsLeft(held.deadlineMs, nowMs) : 0;
  const isExpired = held !== null && (seconds === 0 || expiredQuoteId === held.quote.quoteId);
  const isOverBalance = held !== null && exceedsAvailable(held.quote.fromAmount, from, available);

  /** Anything the quote was made from changed: the quote no longer applies (a pending one is cancelled). */
  const forgetQuote = () => {
    void queryClient.cancelQueries({ queryKey: exchangeKeys.quoteAll });
    queryClient.removeQueries({ queryKey: exchangeKeys.quoteAll });
    setQuoteQuery(null);
    flashRequestId.current = crypto.randomUUID();
  };

  /** The amount or the pair changed: the quote and the amount's problem no longer apply. */
  const resetQuote = () => {
    forgetQuote();
    setProblem(null);
  };

  const requestQuote = () => {
    const found = checkSwapAmount(amountText, side === 'from' ? from : to, side, available);
    setProblem(found ?? null);
    if (found) return;
    const next: ExchangeRateQuery = { from, to, side, amount: amountText.trim() };
    if (quoteQuery && isSameQuery(quoteQuery, next)) void quote.refetch();
    else setQuoteQuery(next);
  };

  // Flash mode shows the live rate: an indicative quote renewed when it runs out.
  const renewQuote = useEffectEvent(requestQuote);
  useEffect(() => {
    if (mode === 'flash' && held && seconds === 0 && !quote.isFetching && !isExecuting) renewQuote();
  }, [mode, held, seconds, quote.isFetching, isExecuting]);

  const finish = (record: SwapRecord) => {
    setResult(record);
    setQuoteQuery(null);
    flashRequestId.current = crypto.randomUUID();
  };

  const confirmSwap = () => {
    if (!held) return;
    const { quoteId } = held.quote;
    swap.mutate(quoteId, {
      onSuccess: finish,
      onError: (error) => {
        if (error instanceof ApiError && error.statusCode === QUOTE_EXPIRED_CODE) setExpiredQuoteId(quoteId);
      },
    });
  };

  const flashExchange = () => {
    if (!held || slippageBps === undefined) return;
    const request = {
      from,
      to,
      side,
      amount: amountText.trim(),
      expectedRate: held.quote.rate,
      maxSlippageBps: slippageBps,
      requestId: flashRequestId.current,
    };
    flash.mutate(request, {
      onSuccess: finish,
      onError: () => {
        // The rate moved beyond the slippage (the client showed the server's message): show the new rate.
        flashRequestId.current = crypto.randomUUID();
        requestQuote();
      },
    });
  };

  /** Leave the result for a new exchange. */
  const clearResult = () => {
    setResult(null);
    resetQuote();
  };

  return {
    held,
    problem,
    serverMessage,
    isQuoting: quote.isFetching,
    isExecuting,
    secondsLeft: seconds,
    isExpired,
    isOverBalance,
    result,
    requestQuote,
    forgetQuote,
    resetQuote,
    confirmSwap,
    flashExchange,
    clearResult,
  };
}
