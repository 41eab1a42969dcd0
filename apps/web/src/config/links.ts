/**
 * Links that leave the single-page app. Social accounts and the mining site are operator settings
 * (VITE_* build variables); an unset link is not rendered rather than pointing somewhere invented.
 */
export interface SocialLink {
  id: 'x' | 'telegram' | 'linkedin' | 'youtube';
  label: string;
  href: string;
}

const env = import.meta.env;

function configured(value: unknown): string | null {
  return typeof value === 'string' && /^https:\/\//.test(value) ? value : null;
}

export const SOCIAL_LINKS: readonly SocialLink[] = (
  [
    { id: 'x', label: 'X', href: configured(env.VITE_SOCIAL_X_URL) },
    { id: 'telegram', label: 'Telegram', href: configured(env.VITE_SOCIAL_TELEGRAM_URL) },
    { id: 'linkedin', label: 'LinkedIn', href: configured(env.VITE_SOCIAL_LINKEDIN_URL) },
    { id: 'youtube', label: 'YouTube', href: configured(env.VITE_SOCIAL_YOUTUBE_URL) },
  ] as const
).flatMap((link) => (link.href ? [{ ...link, href: link.href }] : []));

/** The external mining site listed among the business lines (spec §1); null until configured. */
export const MINING_SITE_URL: string | null = configured(env.VITE_MINING_SITE_URL);
