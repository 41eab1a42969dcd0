import { FLASH_SLIPPAGE_BPS_DEFAULT, type SwapSide } from '@meridian/contracts/exchange';
import type { MarketCoinCode } from '@meridian/contracts/market';
import { Button, Segmented } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUserId } from '../../../lib/session.ts';
import { useWalletBalance } from '../../../lib/get-wallet-balance.ts';
import { useExchangeOrder } from '../hooks/use-exchange-order.ts';
import {
  availableOf,
  bpsToPercentText,
  DEFAULT_PAIR,
  type ExchangeMode,
  slippagePercentToBps,
} from '../lib/swap-form.ts';
import { ExchangeActions } from './exchange-actions.tsx';
import { ExchangeAmountField } from './exchange-amount-field.tsx';
import { ExchangeQuoteCard } from './exchange-quote-card.tsx';
import { ExchangeSlippageField } from './exchange-slippage-field.tsx';
import './exchange.css';

/** A done exchange's receipt: loaded once an exchange is done, so that the page first loads the form alone. */
const loadExchangeResult = () => import('./exchange-result.tsx');
const ExchangeResult = lazy(() => loadExchangeResult().then((m) => ({ default: m.ExchangeResult })));

/**
 * The swap form of /exchange: pair pickers (default USDT → USDE), the amount on either
 * side, the from-coin's available balance; a firm quote with a visible 10 s countdown, refresh and
 * confirm; or a flash exchange at the live rate with a maximum slippage. Guests are asked to log in.
 * The quote and its execution live in `useExchangeOrder`; this component holds the form's choices.
 */
export function ExchangePanel() {
  const { t } = useTranslation('exchange');
  const userId = useUserId();
  const balance = useWalletBalance();
  const [mode, setMode] = useState<ExchangeMode>('swap');
  const [from, setFrom] = useState<MarketCoinCode>(DEFAULT_PAIR.from);
  const [to, setTo] = useState<MarketCoinCode>(DEFAULT_PAIR.to);
  const [side, setSide] = useState<SwapSide>('from');
  const [amountText, setAmountText] = useState('');
  const [slippageText, setSlippageText] = useState(bpsToPercentText(FLASH_SLIPPAGE_BPS_DEFAULT));
  const available = userId ? availableOf(balance.data, from) : undefined;
  const slippageBps = slippagePercentToBps(slippageText);
  const order = useExchangeOrder({ mode, from, to, side, amountText, available, slippageBps });
  const { held, result, resetQuote } = order;
  // Once the user types an amount an exchange may follow: fetch the receipt's code then, so that it
  // shows without a wait.
  const isExchangeLikely = amountText !== '';
  useEffect(() => {
    if (isExchangeLikely) void loadExchangeResult();
  }, [isExchangeLikely]);

  const startOver = () => {
    setAmountText('');
    order.clearResult();
  };

  if (result) {
    return (
      <Suspense fallback={<div className="exchange-panel" aria-busy="true" />}>
        <ExchangeResult record={result} onAgain={startOver} />
      </Suspense>
    );
  }

  const fieldMessage = order.problem ? t(`rules.${order.problem.key}`, order.problem) : order.serverMessage;
  const onAmount = (nextSide: SwapSide) => (value: string) => {
    setSide(nextSide);
    setAmountText(value);
    resetQuote();
  };
  const onPair = (nextFrom: MarketCoinCode, nextTo: MarketCoinCode, nextSide: SwapSide) => {
    setFrom(nextFrom);
    setTo(nextTo);
    setSide(nextSide);
    resetQuote();
  };

  return (
    <div className="exchange-panel" data-testid="exchange-panel">
      <ModePicker
        mode={mode}
        onChange={(value) => {
          setMode(value);
          order.forgetQuote();
        }}
      />

      <ExchangeAmountField
        side="from"
        coin={from}
        otherCoin={to}
        amountText={side === 'from' ? amountText : (held?.quote.fromAmount ?? '')}
        error={side === 'from' ? fieldMessage : null}
        available={available}
        onCoin={(coin) => onPair(coin, to, side)}
        onAmount={onAmount('from')}
      />
      <SwitchButton onClick={() => onPair(to, from, side === 'from' ? 'to' : 'from')} />
      <ExchangeAmountField
        side="to"
        coin={to}
        otherCoin={from}
        amountText={side === 'to' ? amountText : (held?.quote.toAmount ?? '')}
        error={side === 'to' ? fieldMessage : null}
        onCoin={(coin) => onPair(from, coin, side)}
        onAmount={onAmount('to')}
      />

      {mode === 'flash' && (
        <ExchangeSlippageField slippageText={slippageText} slippageBps={slippageBps} onSlippage={setSlippageText} />
      )}
      {held && (
        <ExchangeQuoteCard
          held={held}
          mode={mode}
          side={side}
          from={from}
          to={to}
          slippageBps={slippageBps}
          secondsLeft={order.secondsLeft}
          isExpired={order.isExpired}
          isOverBalance={order.isOverBalance}
        />
      )}
      <ExchangeActions
        isGuest={!userId}
        mode={mode}
        hasQuote={held !== null}
        isQuoting={order.isQuoting}
        isExecuting={order.isExecuting}
        isExpired={order.isExpired}
        isOverBalance={order.isOverBalance}
        isSlippageInvalid={slippageBps === undefined}
        onQuote={order.requestQuote}
        onConfirm={order.confirmSwap}
        onFlash={order.flashExchange}
      />
    </div>
  );
}

/** Swap or flash exchange, with a line saying what the chosen one does. */
function ModePicker({ mode, onChange }: { mode: ExchangeMode; onChange: (mode: ExchangeMode) => void }) {
  const { t } = useTranslation('exchange');
  return (
    <>
      <Segmented<ExchangeMode>
        block
        value={mode}
        onChange={onChange}
        options={[
          { value: 'swap', label: <span data-testid="mode-swap">{t('mode.swap')}</span> },
          { value: 'flash', label: <span data-testid="mode-flash">{t('mode.flash')}</span> },
        ]}
      />
      <p className="exchange-panel__hint">{t(mode === 'swap' ? 'mode.swapHint' : 'mode.flashHint')}</p>
    </>
  );
}

/** The button between the two amounts that swaps the coins. */
function SwitchButton({ onClick }: { onClick: () => void }) {
  const { t } = useTranslation('exchange');
  return (
    <div className="exchange-panel__switch">
      <Button shape="circle" aria-label={t('form.switch')} onClick={onClick} data-testid="exchange-switch">
        ⇅
      </Button>
    </div>
  );
}
