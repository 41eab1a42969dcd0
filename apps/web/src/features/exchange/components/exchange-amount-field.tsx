import type { SwapSide } from '@meridian/contracts/exchange';
import type { MarketCoinCode } from '@meridian/contracts/market';
import { Button, Input, Select, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { EXCHANGE_COINS } from '../lib/swap-form.ts';
import { money } from '../../../lib/money.ts';
import { MONEY_ROUNDING } from '@meridian/contracts/money-format';

export interface ExchangeAmountFieldProps {
  /** Which side of the pair this field is: `from` is paid, `to` is received. */
  side: SwapSide;
  coin: MarketCoinCode;
  /** The other side's coin, which this side cannot pick. */
  otherCoin: MarketCoinCode;
  /** The amount shown: what the user typed on this side, or the quote's amount. */
  amountText: string;
  /** The field's error (an amount rule or the server's refusal), or null. */
  error: string | null;
  /** The from-coin's available balance (wire decimal), shown with a Max button; from side only. */
  available?: string;
  onCoin: (coin: MarketCoinCode) => void;
  onAmount: (amountText: string) => void;
}

/** One side of the swap form: coin picker, amount, and for the paying side the available balance. */
export function ExchangeAmountField({
  side,
  coin,
  otherCoin,
  amountText,
  error,
  available,
  onCoin,
  onAmount,
}: ExchangeAmountFieldProps) {
  const { t } = useTranslation('exchange');
  const isFrom = side === 'from';
  const amountId = `exchange-${side}-amount`;
  const coinOptions = EXCHANGE_COINS.filter((option) => option !== otherCoin).map((option) => ({
    value: option,
    label: option,
  }));

  return (
    <div className="exchange-field">
      <div className="exchange-field__head">
        <label htmlFor={amountId}>{t(isFrom ? 'form.from' : 'form.to')}</label>
        {available !== undefined && (
          <span className="exchange-field__available" data-testid="exchange-available">
            {t('form.available', {
              amount: money(available, coin, { unit: 'none', rounding: MONEY_ROUNDING.available }),
              coin,
            })}
            <Button type="link" size="small" onClick={() => onAmount(available)} data-testid="exchange-max">
              {t('form.max')}
            </Button>
          </span>
        )}
      </div>
      <Space.Compact block>
        <Select<MarketCoinCode>
          className="exchange-field__coin"
          value={coin}
          options={coinOptions}
          onChange={onCoin}
          data-testid={`exchange-${side}-coin`}
          aria-label={t(isFrom ? 'form.fromCoin' : 'form.toCoin')}
        />
        <Input
          id={amountId}
          inputMode="decimal"
          autoComplete="off"
          placeholder={t(isFrom ? 'form.payPlaceholder' : 'form.receivePlaceholder')}
          value={amountText}
          status={error ? 'error' : undefined}
          onChange={(event) => onAmount(event.target.value)}
          data-testid={amountId}
        />
      </Space.Compact>
      {error && (
        <div className="exchange-panel__error" role="alert" data-testid="exchange-amount-error">
          {error}
        </div>
      )}
    </div>
  );
}
