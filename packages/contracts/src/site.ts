import { z } from 'zod';
import { defineEndpoint } from './endpoint.ts';

/**
 * The public site information (docs/marketing.md): what the
 * operator configured for the marketing pages (server variables `SITE_*`, see `.env.example`) and
 * the live figures of the home page's statistic tiles (docs/marketing.md). Every link is an `https://` URL
 * or null when the operator has not set it — the web hides what is null, it never invents a link.
 */

/** A social account shown in the footer; ids match the footer's icons. */
export const SOCIAL_LINK_IDS = ['x', 'telegram', 'linkedin', 'youtube'] as const;
export type SocialLinkId = (typeof SOCIAL_LINK_IDS)[number];

/**
 * One licence or registration of the operator, as `SITE_LICENCES` lists it
 * (`Authority|Licence|Number;…`): e.g. `Hong Kong SFC|Type 1 (dealing in securities)|ABC123`.
 */
export const siteLicenceSchema = z.object({
  authority: z.string(),
  licence: z.string(),
  /** The licence or registration number; may be empty when the authority gives none. */
  number: z.string(),
});
export type SiteLicence = z.infer<typeof siteLicenceSchema>;

export const siteInfoSchema = z.object({
  /** Legal name of the operating company (`SITE_LEGAL_ENTITY`); null: not configured (outside production only). */
  legalEntity: z.string().nullable(),
  /** Registered address (`SITE_REGISTERED_ADDRESS`); null: not configured (outside production only). */
  registeredAddress: z.string().nullable(),
  /** Licences and registrations (`SITE_LICENCES`); empty: not configured. */
  licences: z.array(siteLicenceSchema),
  /**
   * True when any of the three legal details is not configured, which the server allows only
   * outside production: the About page then shows marked demonstration values in their place.
   */
  legalDetailsAreDemo: z.boolean(),
  /**
   * The separate exchange site (`SITE_EXCHANGE_URL`, one of the other product lines; docs/marketing.md); null: not run.
   */
  exchangeUrl: z.string().nullable(),
  /** The separate mining site (`SITE_MINING_URL`); null: not run. */
  miningUrl: z.string().nullable(),
  /** Social accounts that are configured (`SITE_SOCIAL_<ID>_URL`), in footer order. */
  social: z.array(z.object({ id: z.enum(SOCIAL_LINK_IDS), href: z.string() })),
  /** Live figures for the home page's statistic tiles. */
  stats: z.object({
    /**
     * Highest annual rate of the fund products open to subscription now, in basis points
     * (1080 = 10.8 %); null when no fund is open.
     */
    topAnnualRateBps: z.number().int().nullable(),
  }),
});
export type SiteInfo = z.infer<typeof siteInfoSchema>;

export const siteEndpoints = {
  getSite: defineEndpoint({
    method: 'GET',
    path: '/site',
    tag: 'site',
    summary: "The public site information: operator's legal details and links, and the home page's live figures",
    auth: 'none',
    content: siteInfoSchema,
  }),
};
