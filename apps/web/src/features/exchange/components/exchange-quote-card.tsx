import { displayInverseRate, displayRate } from '@meridian/contracts/money';
import { QUOTE_TTL_MS, type SwapSide } from '@meridian/contracts/exchange';
import type { MarketCoinCode } from '@meridian/contracts/market';
import { Alert } from 'antd';
import { useTranslation } from 'react-i18next';
import type { HeldQuote } from '../api/get-exchange-quote.ts';
import { bpsToPercentText, type ExchangeMode, minimumReceived } from '../lib/swap-form.ts';
import { money } from '../../../lib/money.ts';
import { MONEY_ROUNDING } from '@meridian/contracts/money-format';

export interface ExchangeQuoteCardProps {
  held: HeldQuote;
  mode: ExchangeMode;
  /** The side the user typed the amount on (the minimum received applies to a from-side amount). */
  side: SwapSide;
  from: MarketCoinCode;
  to: MarketCoinCode;
  /** The flash exchange's maximum slippage, in basis points; undefined when invalid. */
  slippageBps: number | undefined;
  /** Whole seconds left before the quote runs out (0: run out). */
  secondsLeft: number;
  isExpired: boolean;
  isOverBalance: boolean;
}

/**
 * A held quote: the rate and its inverse, what is paid and received, the spread; a firm
 * quote's 10 s countdown or its expiry, a flash exchange's minimum received.
 */
export function ExchangeQuoteCard({
  held,
  mode,
  side,
  from,
  to,
  slippageBps,
  secondsLeft,
  isExpired,
  isOverBalance,
}: ExchangeQuoteCardProps) {
  const { t } = useTranslation('exchange');
  const { quote } = held;
  const inverseRate = displayInverseRate(quote.rate);
  return (
    <div className="exchange-quote" data-testid="exchange-quote">
      <dl>
        <div>
          <dt>{t('quote.rate')}</dt>
          <dd>
            <span data-testid="quote-rate">{t('quote.rateValue', { from, to, rate: displayRate(quote.rate) })}</span>
            {inverseRate && (
              <span data-testid="quote-rate-inverse">
                {t('quote.rateValue', { from: to, to: from, rate: inverseRate })}
              </span>
            )}
          </dd>
        </div>
        <div>
          <dt>{t('quote.pay')}</dt>
          <dd data-testid="quote-pay">{money(quote.fromAmount, from, { rounding: MONEY_ROUNDING.owed })}</dd>
        </div>
        <div>
          <dt>{t(mode === 'flash' ? 'flash.estimated' : 'quote.receive')}</dt>
          <dd data-testid="quote-receive">{money(quote.toAmount, to, { rounding: MONEY_ROUNDING.available })}</dd>
        </div>
        {mode === 'flash' && side === 'from' && slippageBps !== undefined && (
          <div>
            <dt>{t('flash.minimumReceived')}</dt>
            <dd data-testid="quote-minimum">
              {money(minimumReceived(quote.toAmount, to, slippageBps), to, { rounding: MONEY_ROUNDING.available })}
            </dd>
          </div>
        )}
        <div>
          <dt>{t('quote.spread')}</dt>
          <dd>{`${bpsToPercentText(quote.spreadBps)}%`}</dd>
        </div>
      </dl>
      {mode === 'swap' &&
        (isExpired ? (
          <Alert type="warning" showIcon title={t('quote.expired')} data-testid="quote-expired" />
        ) : (
          <div className="exchange-quote__countdown" data-testid="quote-countdown" aria-live="polite">
            <span
              className="exchange-quote__ring"
              style={{ ['--progress' as string]: `${(secondsLeft * 1000) / QUOTE_TTL_MS}` }}
            />
            {t('quote.expiresIn', { count: secondsLeft })}
          </div>
        ))}
      {mode === 'flash' && <p className="exchange-panel__hint">{t('flash.liveRate')}</p>}
      {isOverBalance && (
        <div className="exchange-panel__error" role="alert" data-testid="quote-over-balance">
          {t('rules.exceedsAvailable')}
        </div>
      )}
    </div>
  );
}
