import { z } from 'zod';
import { emptyToUndefined, type NodeEnv } from './env-rules.ts';

/** An absolute `https://` URL (links the public site shows). */
const httpsUrlSchema = z.url({ protocol: /^https$/, error: 'must be an https:// URL' });

/**
 * `SITE_LICENCES`: `Authority|Licence|Number` entries separated by `;`, e.g.
 * `Hong Kong SFC|Type 1 licence|ABC123;Hong Kong Customs|Money Service Operator|12-34-56789`.
 */
const siteLicencesSchema = z
  .string()
  .transform((text) =>
    text
      .split(';')
      .map((entry) => entry.trim())
      .filter((entry) => entry !== '')
      .map((entry) => entry.split('|').map((part) => part.trim())),
  )
  .pipe(
    z
      .array(
        z
          .array(z.string())
          .refine((parts) => parts.length >= 2 && parts.length <= 3 && parts[0] !== '' && parts[1] !== '', {
            error: 'each entry must read Authority|Licence|Number (the number may be left out)',
          }),
      )
      .transform((entries) =>
        entries.map(([authority = '', licence = '', number = '']) => ({ authority, licence, number })),
      ),
  );

/** The public site's operator details and links. */
export const siteEnvSchema = z.object({
  /**
   * Public site (docs/marketing.md): the operator's legal name, registered address and
   * licences shown on /about, the separate exchange and mining sites, and the social accounts of
   * the footer. Unset: the About page marks the legal details as still to be completed, and the
   * links are hidden.
   */
  SITE_LEGAL_ENTITY: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(200).optional()),
  SITE_REGISTERED_ADDRESS: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(300).optional()),
  /** `Authority|Licence|Number` entries separated by `;` (the number may be empty). */
  SITE_LICENCES: z.preprocess(emptyToUndefined, siteLicencesSchema.optional()),
  SITE_EXCHANGE_URL: z.preprocess(emptyToUndefined, httpsUrlSchema.optional()),
  SITE_MINING_URL: z.preprocess(emptyToUndefined, httpsUrlSchema.optional()),
  SITE_SOCIAL_X_URL: z.preprocess(emptyToUndefined, httpsUrlSchema.optional()),
  SITE_SOCIAL_TELEGRAM_URL: z.preprocess(emptyToUndefined, httpsUrlSchema.optional()),
  SITE_SOCIAL_LINKEDIN_URL: z.preprocess(emptyToUndefined, httpsUrlSchema.optional()),
  SITE_SOCIAL_YOUTUBE_URL: z.preprocess(emptyToUndefined, httpsUrlSchema.optional()),
});

/** The site variables after parsing. */
export type SiteEnv = z.infer<typeof siteEnvSchema>;

/** The site variables' rules across variables. */
export function checkSiteEnv(env: SiteEnv & { NODE_ENV: NodeEnv }, ctx: z.RefinementCtx): void {
  if (env.NODE_ENV === 'production') {
    // The operator's legal details on /about: a public page never shows placeholders in production.
    for (const name of ['SITE_LEGAL_ENTITY', 'SITE_REGISTERED_ADDRESS', 'SITE_LICENCES'] as const) {
      if (!env[name]) ctx.addIssue({ code: 'custom', path: [name], message: 'is required in production' });
    }
  }
}

/** The public site's operator details and links (SITE_*); undefined/empty: not configured. */
export interface SiteConfig {
  legalEntity: string | undefined;
  registeredAddress: string | undefined;
  licences: { authority: string; licence: string; number: string }[];
  exchangeUrl: string | undefined;
  miningUrl: string | undefined;
  social: {
    x: string | undefined;
    telegram: string | undefined;
    linkedin: string | undefined;
    youtube: string | undefined;
  };
}

/** The public site's settings from SITE_*. */
export function siteConfig(e: SiteEnv): SiteConfig {
  return {
    legalEntity: e.SITE_LEGAL_ENTITY,
    registeredAddress: e.SITE_REGISTERED_ADDRESS,
    licences: e.SITE_LICENCES ?? [],
    exchangeUrl: e.SITE_EXCHANGE_URL,
    miningUrl: e.SITE_MINING_URL,
    social: {
      x: e.SITE_SOCIAL_X_URL,
      telegram: e.SITE_SOCIAL_TELEGRAM_URL,
      linkedin: e.SITE_SOCIAL_LINKEDIN_URL,
      youtube: e.SITE_SOCIAL_YOUTUBE_URL,
    },
  };
}
