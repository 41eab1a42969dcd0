import { Button, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { bpsToPercentText } from '../lib/swap-form.ts';

/** The preset maximum slippages offered, in basis points (0.1%, 0.5%, 1%). */
const SLIPPAGE_PRESETS_BPS = [10, 50, 100] as const;

export interface ExchangeSlippageFieldProps {
  /** The slippage as typed, in percent ('0.5'). */
  slippageText: string;
  /** `slippageText` in basis points; undefined when it is not a valid slippage. */
  slippageBps: number | undefined;
  onSlippage: (slippageText: string) => void;
}

/** The flash exchange's maximum slippage: presets and a percent field, refused outside 0–5%. */
export function ExchangeSlippageField({ slippageText, slippageBps, onSlippage }: ExchangeSlippageFieldProps) {
  const { t } = useTranslation('exchange');
  return (
    <div className="exchange-field">
      <div className="exchange-field__head">
        <label htmlFor="exchange-slippage">{t('flash.slippage')}</label>
      </div>
      <Space wrap>
        {SLIPPAGE_PRESETS_BPS.map((bps) => (
          <Button
            key={bps}
            size="small"
            type={slippageBps === bps ? 'primary' : 'default'}
            onClick={() => onSlippage(bpsToPercentText(bps))}
          >
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
          onChange={(event) => onSlippage(event.target.value)}
          data-testid="exchange-slippage"
        />
      </Space>
      {slippageBps === undefined && (
        <div className="exchange-panel__error" role="alert">
          {t('flash.slippageInvalid')}
        </div>
      )}
    </div>
  );
}
