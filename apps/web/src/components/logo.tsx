import { useId } from 'react';

/** The Meridian mark (a meridian arc over a globe line) and word mark; one SVG, no external assets. */
export function Logo({ height = 30, tone = 'light' }: { height?: number; tone?: 'light' | 'dark' }) {
  const text = tone === 'light' ? '#ffffff' : '#0b1630';
  // A unique gradient id per logo: a url(#id) that resolves into a hidden copy would not paint.
  const gradientId = `logo-mark-${useId().replace(/[^a-zA-Z0-9_-]/g, '')}`;
  return (
    <svg height={height} viewBox="0 0 130 32" role="img" aria-label="Meridian" className="logo">
      <defs>
        <linearGradient id={gradientId} x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#2dd4bf" />
          <stop offset="1" stopColor="#0e7490" />
        </linearGradient>
      </defs>
      <circle cx="16" cy="16" r="14" fill={`url(#${gradientId})`} />
      <path
        d="M16 3.5c-4.2 3.4-6.3 7.6-6.3 12.5s2.1 9.1 6.3 12.5"
        stroke="#fff"
        strokeWidth="2"
        fill="none"
        strokeLinecap="round"
      />
      <path
        d="M16 3.5c4.2 3.4 6.3 7.6 6.3 12.5s-2.1 9.1-6.3 12.5"
        stroke="#fff"
        strokeOpacity=".55"
        strokeWidth="2"
        fill="none"
        strokeLinecap="round"
      />
      <path d="M3.5 16h25" stroke="#fff" strokeOpacity=".8" strokeWidth="2" strokeLinecap="round" />
      <text
        x="38"
        y="22.5"
        fill={text}
        fontFamily="-apple-system, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif"
        fontSize="20"
        fontWeight="700"
        letterSpacing=".5"
      >
        Meridian
      </text>
    </svg>
  );
}
