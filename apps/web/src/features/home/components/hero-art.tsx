import { useId } from 'react';

/**
 * Decorative hero illustration: a globe of meridians with a card and two coins in orbit. It carries
 * no figures and is hidden from assistive tech.
 */
export function HeroArt() {
  const id = useId().replace(/[^a-zA-Z0-9_-]/g, '');
  const ref = (name: string) => `url(#${name}-${id})`;
  return (
    <div className="hero__art" aria-hidden="true">
      <svg viewBox="0 0 440 380" width="440" height="380">
        <defs>
          <radialGradient id={`hero-glow-${id}`} cx="50%" cy="45%" r="55%">
            <stop offset="0" stopColor="#2dd4bf" stopOpacity=".35" />
            <stop offset="1" stopColor="#2dd4bf" stopOpacity="0" />
          </radialGradient>
          <linearGradient id={`hero-card-${id}`} x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#14b8a6" />
            <stop offset=".55" stopColor="#0e7490" />
            <stop offset="1" stopColor="#1e3a8a" />
          </linearGradient>
          <linearGradient id={`hero-coin-gold-${id}`} x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#fcd34d" />
            <stop offset="1" stopColor="#f59e0b" />
          </linearGradient>
          <linearGradient id={`hero-coin-teal-${id}`} x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#5eead4" />
            <stop offset="1" stopColor="#0d9488" />
          </linearGradient>
        </defs>
        <circle cx="220" cy="180" r="180" fill={ref('hero-glow')} />
        <g fill="none" stroke="#5eead4" strokeOpacity=".28" strokeWidth="1.2">
          <circle cx="220" cy="180" r="130" />
          <ellipse cx="220" cy="180" rx="95" ry="130" />
          <ellipse cx="220" cy="180" rx="50" ry="130" />
          <path d="M220 50v260" />
          <ellipse cx="220" cy="180" rx="130" ry="45" />
          <path d="M90 180h260" />
          <ellipse cx="220" cy="180" rx="200" ry="70" strokeOpacity=".18" strokeDasharray="3 7" />
        </g>
        <g transform="rotate(-12 250 215)">
          <rect x="150" y="160" width="200" height="124" rx="14" fill={ref('hero-card')} />
          <rect x="150" y="160" width="200" height="124" rx="14" fill="none" stroke="#fff" strokeOpacity=".25" />
          <rect x="170" y="196" width="30" height="22" rx="4" fill="#fde68a" fillOpacity=".9" />
          <path
            d="M170 255h40M218 255h40M266 255h40"
            stroke="#fff"
            strokeOpacity=".7"
            strokeWidth="4"
            strokeLinecap="round"
          />
          <circle cx="312" cy="186" r="11" fill="#fff" fillOpacity=".55" />
          <circle cx="326" cy="186" r="11" fill="#fff" fillOpacity=".3" />
        </g>
        <g>
          <circle cx="92" cy="110" r="30" fill={ref('hero-coin-gold')} />
          <text
            x="92"
            y="120"
            textAnchor="middle"
            fontSize="28"
            fontWeight="700"
            fill="#7c2d12"
            fontFamily="Arial, sans-serif"
          >
            B
          </text>
          <path d="M88 92v6M96 92v6M88 122v6M96 122v6" stroke="#7c2d12" strokeWidth="2.5" strokeLinecap="round" />
        </g>
        <g>
          <circle cx="360" cy="84" r="24" fill={ref('hero-coin-teal')} />
          <text
            x="360"
            y="92"
            textAnchor="middle"
            fontSize="22"
            fontWeight="700"
            fill="#042f2e"
            fontFamily="Arial, sans-serif"
          >
            $
          </text>
        </g>
      </svg>
    </div>
  );
}
