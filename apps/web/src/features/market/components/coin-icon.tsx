import type { MarketCoinCode } from '@meridian/contracts/market';

/**
 * Brand colour and glyph per coin: drawn inline, so the table needs no image requests. Bitcoin's
 * mark is a tilted B with two bars above and below, drawn rather than written: the sign ₿
 * (U+20BF) is missing from common fonts (Arial, DejaVu Sans) and showed as a blank box.
 */
const COIN_MARKS: Record<MarketCoinCode, { color: string; glyph: string }> = {
  BTC: { color: '#f7931a', glyph: 'B' },
  ETH: { color: '#627eea', glyph: 'Ξ' },
  USDT: { color: '#26a17b', glyph: '₮' },
  USDC: { color: '#2775ca', glyph: '$' },
  USDE: { color: '#0f766e', glyph: 'E' },
};

/** The bars of Bitcoin's B: two above the letter and two below it, in the 32 × 32 box. */
const BITCOIN_BARS = [
  { x: 13.2, y: 7 },
  { x: 16.4, y: 7 },
  { x: 13.2, y: 21.6 },
  { x: 16.4, y: 21.6 },
];

/** A round coin mark (decorative: the code is written beside it). */
export function CoinIcon({ coinCode, sizePx = 32 }: { coinCode: MarketCoinCode; sizePx?: number }) {
  const mark = COIN_MARKS[coinCode];
  const glyph = (
    <text x="16" y="21.5" textAnchor="middle" fontSize="16" fontWeight="700" fill="#fff" fontFamily="Arial, sans-serif">
      {mark.glyph}
    </text>
  );
  return (
    <svg className="coin-icon" width={sizePx} height={sizePx} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <circle cx="16" cy="16" r="16" fill={mark.color} />
      {coinCode === 'BTC' ? (
        <g transform="rotate(14 16 16)">
          {glyph}
          {BITCOIN_BARS.map((bar) => (
            <rect key={`${bar.x},${bar.y}`} x={bar.x} y={bar.y} width="1.7" height="3.4" fill="#fff" />
          ))}
        </g>
      ) : (
        glyph
      )}
    </svg>
  );
}
