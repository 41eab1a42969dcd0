import type { MarketCoinCode } from '@meridian/contracts/market';

/** Brand colour and glyph per coin: drawn inline, so the table needs no image requests. */
const COIN_MARKS: Record<MarketCoinCode, { color: string; glyph: string }> = {
  BTC: { color: '#f7931a', glyph: '₿' },
  ETH: { color: '#627eea', glyph: 'Ξ' },
  USDT: { color: '#26a17b', glyph: '₮' },
  USDC: { color: '#2775ca', glyph: '$' },
  USDE: { color: '#0f766e', glyph: 'E' },
};

/** A round coin mark (decorative: the code is written beside it). */
export function CoinIcon({ coinCode, sizePx = 32 }: { coinCode: MarketCoinCode; sizePx?: number }) {
  const mark = COIN_MARKS[coinCode];
  return (
    <svg className="coin-icon" width={sizePx} height={sizePx} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <circle cx="16" cy="16" r="16" fill={mark.color} />
      <text x="16" y="21.5" textAnchor="middle" fontSize="16" fontWeight="700" fill="#fff" fontFamily="Arial, sans-serif">
        {mark.glyph}
      </text>
    </svg>
  );
}
