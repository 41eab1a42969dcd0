import { displayAmount, displayInverseRate, displayRate } from '@meridian/contracts/money';
import { type ExchangeQuote, FLASH_SLIPPAGE_BPS_DEFAULT, QUOTE_TTL_MS, type SwapRecord, type SwapSide } from '@meridian/contracts/exchange';
import type { MarketCoinCode } from '@meridian/contracts/market';
import { Alert, Button, Input, Result, Segmented, Select, Space } from 'antd';
import { useEffect, useEffectEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { pathTo } from '../../../config/paths.ts';
import { isSuccess } from '../../../lib/api-client.ts';
import { useUserId } from '../../../lib/session.ts';
import { openActionModal } from '../../../stores/modal-store.ts';
import { exchangeApi, useExchangeBalance, useInvalidateAfterSwap } from '../api/exchange-api.ts';
import { useNow } from '../hooks/use-now.ts';
import {
  availableOf,
  bpsToPercentText,
  checkSwapAmount,
  DEFAULT_PAIR,
  EXCHANGE_COINS,
  exceedsAvailable,
  minimumReceived,
  secondsLeft,
  slippagePercentToBps,
  type SwapAmountProblem,
} from '../lib/swap-form.ts';
import './exchange.css';

type Mode = 'swap' | 'flash';

/** A quote with the browser-clock moment it stops being usable (see `secondsLeft`). */
interface HeldQuote {
  quote: ExchangeQuote;
  deadlineMs: number;
}

/** Business code of an expired quote (spec §8 'This quote has expired, please get a new quote'). */
const QUOTE_EXPIRED_CODE = 131;
const COUNTDOWN_TICK_MS = 250;
const SLIPPAGE_PRESETS_BPS = [10, 50, 100] as const;

/**
 * The swap form of /exchange (issue 5): pair pickers (default USDT → USDE), the amount on either
 * side, the from-coin's available balance; a firm quote with a visible 10 s countdown, refresh and
 * confirm; or a flash exchange at the live rate with a maximum slippage. Guests are asked to log in.
 */
export function ExchangePanel() {
  const { t } = useTranslation('exchange');
  const userId = useUserId();
  const balance = useExchangeBalance();
  const invalidate = useInvalidateAfterSwap();

  const [mode, setMode] = useState<Mode>('swap');
  const [from, setFrom] = useState<MarketCoinCode>(DEFAULT_PAIR.from);
  const [to, setTo] = useState<MarketCoinCode>(DEFAULT_PAIR.to);
  const [side, setSide] = useState<SwapSide>('from');
  const [amountText, setAmountText] = useState('');
  const [slippageText, setSlippageText] = useState(bpsToPercentText(FLASH_SLIPPAGE_BPS_DEFAULT));
  const [held, setHeld] = useState<HeldQuote | null>(null);
  const [problem, setProblem] = useState<SwapAmountProblem | null>(null);
  const [serverMessage, setServerMessage] = useState<string | null>(null);
  const [isQuoting, setIsQuoting] = useState(false);
  const [isExecuting, setIsExecuting] = useState(false);
  const [isExpiredByServer, setIsExpiredByServer] = useState(false);
  const [result, setResult] = useState<SwapRecord | null>(null);
  // One id per flash attempt: a retry of the same attempt can never exchange twice (server replay).
  const flashRequestId = useRef<string>(crypto.randomUUID());
  const quoteAbort = useRef<AbortController | null>(null);
  const resultRef = useRef<HTMLDivElement>(null);

  // The result is shorter than the form it replaces: on a phone the page stayed scrolled to where
  // Confirm was and cut the result's top off. Bring it into view (below the fixed header).
  useEffect(() => {
    if (result) resultRef.current?.scrollIntoView({ block: 'nearest' });
  }, [result]);

  const nowMs = useNow(COUNTDOWN_TICK_MS, held !== null);
  const seconds = held ? secondsLeft(held.deadlineMs, nowMs) : 0;
  const isExpired = held !== null && (seconds === 0 || isExpiredByServer);
  const available = userId ? availableOf(balance.data, from) : undefined;
  const slippageBps = slippagePercentToBps(slippageText);
  const isOverBalance = held !== null && exceedsAvailable(held.quote.fromAmount, from, available);

  /** Anything the quote was made from changed: the quote no longer applies. */
  const forgetQuote = () => {
    quoteAbort.current?.abort();
    setHeld(null);
    setServerMessage(null);
    setIsExpiredByServer(false);
    flashRequestId.current = crypto.randomUUID();
  };

  const requestQuote = async () => {
    const found = checkSwapAmount(amountText, side === 'from' ? from : to, side, available);
    setProblem(found ?? null);
    if (found) return;
    quoteAbort.current?.abort();
    const controller = new AbortController();
    quoteAbort.current = controller;
    const askedAtMs = Date.now();
    setIsQuoting(true);
    const response = await exchangeApi.rate({ from, to, side, amount: amountText.trim() }, controller.signal);
    if (controller.signal.aborted) return;
    setIsQuoting(false);
    setIsExpiredByServer(false);
    if (isSuccess(response)) {
      setHeld({ quote: response.content, deadlineMs: askedAtMs + QUOTE_TTL_MS });
      setServerMessage(null);
    } else {
      setHeld(null);
      // Below the minimum / above the maximum order amount, no price …: the server's words, in the user's language.
      setServerMessage(response.message);
    }
  };

  // Flash mode shows the live rate: an indicative quote renewed when it runs out.
  const renewQuote = useEffectEvent(() => void requestQuote());
  useEffect(() => {
    if (mode === 'flash' && held && seconds === 0 && !isQuoting && !isExecuting) renewQuote();
  }, [mode, held, seconds, isQuoting, isExecuting]);

  const confirmSwap = async () => {
    if (!held) return;
    setIsExecuting(true);
    const response = await exchangeApi.swap(held.quote.quoteId);
    setIsExecuting(false);
    if (isSuccess(response)) {
      finish(response.content);
    } else if (response.statusCode === QUOTE_EXPIRED_CODE) {
      setIsExpiredByServer(true);
    }
  };

  const flashExchange = async () => {
    if (!held || slippageBps === undefined) return;
    setIsExecuting(true);
    const response = await exchangeApi.flash({
      from,
      to,
      side,
      amount: amountText.trim(),
      expectedRate: held.quote.rate,
      maxSlippageBps: slippageBps,
      requestId: flashRequestId.current,
    });
    setIsExecuting(false);
    if (isSuccess(response)) {
      finish(response.content);
    } else {
      // The rate moved beyond the slippage (the client showed the server's message): show the new rate.
      flashRequestId.current = crypto.randomUUID();
      void requestQuote();
    }
  };

  const finish = (record: SwapRecord) => {
    setResult(record);
    setHeld(null);
    flashRequestId.current = crypto.randomUUID();
    invalidate();
  };

  const startOver = () => {
    setResult(null);
    setAmountText('');
    setProblem(null);
    forgetQuote();
  };

  if (result) {
    return (
      <div className="exchange-panel" ref={resultRef} data-testid="exchange-result">
        <Result
          status="success"
          title={t('result.title')}
          subTitle={t('result.subtitle', {
            pay: `${displayAmount(result.fromAmount, result.from)}\u00a0${result.from}`,
            receive: `${displayAmount(result.toAmount, result.to)}\u00a0${result.to}`,
          })}
          extra={[
            <Button key="again" type="primary" onClick={startOver} data-testid="exchange-again">
              {t('result.again')}
            </Button>,
            <Link key="history" to={pathTo('SwapHistory')} className="exchange-panel__link" data-testid="exchange-history-link">
              {t('result.history')}
            </Link>,
          ]}
        />
      </div>
    );
  }

  const coinOptions = (exclude: MarketCoinCode) => EXCHANGE_COINS.filter((coin) => coin !== exclude).map((coin) => ({ value: coin, label: coin }));
  const shownFromAmount = side === 'from' ? amountText : (held?.quote.fromAmount ?? '');
  const shownToAmount = side === 'to' ? amountText : (held?.quote.toAmount ?? '');
  const inverseRate = held ? displayInverseRate(held.quote.rate) : null;
  const fieldMessage = problem ? t(`rules.${problem.key}`, problem) : serverMessage;
  const onAmount = (nextSide: SwapSide) => (value: string) => {
    setSide(nextSide);
    setAmountText(value);
    setProblem(null);
    forgetQuote();
  };
  const fieldError = (fieldSide: SwapSide) =>
    fieldMessage && side === fieldSide ? (
      <div className="exchange-panel__error" role="alert" data-testid="exchange-amount-error">
        {fieldMessage}
      </div>
    ) : null;

  return (
    <div className="exchange-panel" data-testid="exchange-panel">
      <Segmented<Mode>
        block
        value={mode}
        onChange={(value) => {
          setMode(value);
          forgetQuote();
        }}
        options={[
          { value: 'swap', label: <span data-testid="mode-swap">{t('mode.swap')}</span> },
          { value: 'flash', label: <span data-testid="mode-flash">{t('mode.flash')}</span> },
        ]}
      />
      <p className="exchange-panel__hint">{t(mode === 'swap' ? 'mode.swapHint' : 'mode.flashHint')}</p>

      <div className="exchange-field">
        <div className="exchange-field__head">
          <label htmlFor="exchange-from-amount">{t('form.from')}</label>
          {available !== undefined && (
            <span className="exchange-field__available" data-testid="exchange-available">
              {t('form.available', { amount: displayAmount(available, from), coin: from })}
              <Button type="link" size="small" onClick={() => onAmount('from')(available)} data-testid="exchange-max">
                {t('form.max')}
              </Button>
            </span>
          )}
        </div>
        <Space.Compact block>
          <Select<MarketCoinCode>
            className="exchange-field__coin"
            value={from}
            options={coinOptions(to)}
            onChange={(coin) => {
              setFrom(coin);
              setProblem(null);
              forgetQuote();
            }}
            data-testid="exchange-from-coin"
            aria-label={t('form.fromCoin')}
          />
          <Input
            id="exchange-from-amount"
            inputMode="decimal"
            autoComplete="off"
            placeholder={t('form.payPlaceholder')}
            value={shownFromAmount}
            status={fieldMessage && side === 'from' ? 'error' : undefined}
            onChange={(event) => onAmount('from')(event.target.value)}
            data-testid="exchange-from-amount"
          />
        </Space.Compact>
        {fieldError('from')}
      </div>

      <div className="exchange-panel__switch">
        <Button
          shape="circle"
          aria-label={t('form.switch')}
          onClick={() => {
            setFrom(to);
            setTo(from);
            setSide(side === 'from' ? 'to' : 'from');
            setProblem(null);
            forgetQuote();
          }}
          data-testid="exchange-switch"
        >
          ⇅
        </Button>
      </div>

      <div className="exchange-field">
        <div className="exchange-field__head">
          <label htmlFor="exchange-to-amount">{t('form.to')}</label>
        </div>
        <Space.Compact block>
          <Select<MarketCoinCode>
            className="exchange-field__coin"
            value={to}
            options={coinOptions(from)}
            onChange={(coin) => {
              setTo(coin);
              setProblem(null);
              forgetQuote();
            }}
            data-testid="exchange-to-coin"
            aria-label={t('form.toCoin')}
          />
          <Input
            id="exchange-to-amount"
            inputMode="decimal"
            autoComplete="off"
            placeholder={t('form.receivePlaceholder')}
            value={shownToAmount}
            status={fieldMessage && side === 'to' ? 'error' : undefined}
            onChange={(event) => onAmount('to')(event.target.value)}
            data-testid="exchange-to-amount"
          />
        </Space.Compact>
        {fieldError('to')}
      </div>

      {mode === 'flash' && (
        <div className="exchange-field">
          <div className="exchange-field__head">
            <label htmlFor="exchange-slippage">{t('flash.slippage')}</label>
          </div>
          <Space wrap>
            {SLIPPAGE_PRESETS_BPS.map((bps) => (
              <Button key={bps} size="small" type={slippageBps === bps ? 'primary' : 'default'} onClick={() => setSlippageText(bpsToPercentText(bps))}>
                {bpsToPercentText(bps)}%
              </Button>
            ))}
            <Input
              id="exchange-slippage"
              className="exchange-field__slippage"
              inputMode="decimal"
              suffix="%"
              value={slippageText}
              status={slippageBps === undefined ? 'error' : undefined}
              onChange={(event) => setSlippageText(event.target.value)}
              data-testid="exchange-slippage"
            />
          </Space>
          {slippageBps === undefined && (
            <div className="exchange-panel__error" role="alert">
              {t('flash.slippageInvalid')}
            </div>
          )}
        </div>
      )}

      {held && (
        <div className="exchange-quote" data-testid="exchange-quote">
          <dl>
            <div>
              <dt>{t('quote.rate')}</dt>
              <dd>
                <span data-testid="quote-rate">{t('quote.rateValue', { from, to, rate: displayRate(held.quote.rate) })}</span>
                {inverseRate && <span data-testid="quote-rate-inverse">{t('quote.rateValue', { from: to, to: from, rate: inverseRate })}</span>}
              </dd>
            </div>
            <div>
              <dt>{t('quote.pay')}</dt>
              <dd data-testid="quote-pay">{`${displayAmount(held.quote.fromAmount, from)} ${from}`}</dd>
            </div>
            <div>
              <dt>{t(mode === 'flash' ? 'flash.estimated' : 'quote.receive')}</dt>
              <dd data-testid="quote-receive">{`${displayAmount(held.quote.toAmount, to)} ${to}`}</dd>
            </div>
            {mode === 'flash' && side === 'from' && slippageBps !== undefined && (
              <div>
                <dt>{t('flash.minimumReceived')}</dt>
                <dd data-testid="quote-minimum">{`${displayAmount(minimumReceived(held.quote.toAmount, to, slippageBps), to)} ${to}`}</dd>
              </div>
            )}
            <div>
              <dt>{t('quote.spread')}</dt>
              <dd>{`${bpsToPercentText(held.quote.spreadBps)}%`}</dd>
            </div>
          </dl>
          {mode === 'swap' &&
            (isExpired ? (
              <Alert type="warning" showIcon title={t('quote.expired')} data-testid="quote-expired" />
            ) : (
              <div className="exchange-quote__countdown" data-testid="quote-countdown" aria-live="polite">
                <span className="exchange-quote__ring" style={{ ['--progress' as string]: `${(seconds * 1000) / QUOTE_TTL_MS}` }} />
                {t('quote.expiresIn', { count: seconds })}
              </div>
            ))}
          {mode === 'flash' && <p className="exchange-panel__hint">{t('flash.liveRate')}</p>}
          {isOverBalance && (
            <div className="exchange-panel__error" role="alert" data-testid="quote-over-balance">
              {t('rules.exceedsAvailable')}
            </div>
          )}
        </div>
      )}

      <div className="exchange-panel__actions">
        {!userId ? (
          <Button type="primary" size="large" block onClick={() => openActionModal('login', { returnTo: pathTo('Exchange') })} data-testid="exchange-login-submit">
            {t('form.loginToExchange')}
          </Button>
        ) : mode === 'swap' ? (
          held ? (
            <>
              <Button size="large" onClick={() => void requestQuote()} loading={isQuoting} data-testid="quote-refresh">
                {t('quote.refresh')}
              </Button>
              <Button
                type="primary"
                size="large"
                disabled={isExpired || isOverBalance}
                loading={isExecuting}
                onClick={() => void confirmSwap()}
                data-testid="quote-confirm"
              >
                {t('quote.confirm')}
              </Button>
            </>
          ) : (
            <Button type="primary" size="large" block loading={isQuoting} onClick={() => void requestQuote()} data-testid="quote-get">
              {t('quote.get')}
            </Button>
          )
        ) : held ? (
          <Button
            type="primary"
            size="large"
            block
            disabled={slippageBps === undefined || isOverBalance}
            loading={isExecuting}
            onClick={() => void flashExchange()}
            data-testid="flash-submit"
          >
            {t('flash.submit')}
          </Button>
        ) : (
          <Button type="primary" size="large" block loading={isQuoting} onClick={() => void requestQuote()} data-testid="flash-rate">
            {t('flash.getRate')}
          </Button>
        )}
      </div>
    </div>
  );
}
