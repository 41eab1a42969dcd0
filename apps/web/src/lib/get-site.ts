import type { SiteInfo, siteEndpoints } from '@meridian/contracts/site';
import { useQuery } from '@tanstack/react-query';
import { request, unwrap } from './api-client.ts';

/**
 * The route of `siteEndpoints.getSite`, checked against the descriptor at compile time. The home
 * page and the footer read it on the first load, and importing the descriptor would bring full zod
 * with it (the home route stays under 150 KB); `readSiteInfo` checks the answer instead.
 */
const GET_SITE_ROUTE = { method: 'GET', path: '/site' } as const satisfies Pick<
  typeof siteEndpoints.getSite,
  'method' | 'path'
>;

/** What the pages show while the answer has not come (or failed): nothing configured, no live figure. */
export const EMPTY_SITE_INFO: SiteInfo = {
  legalEntity: null,
  registeredAddress: null,
  licences: [],
  legalDetailsAreDemo: false,
  exchangeUrl: null,
  miningUrl: null,
  social: [],
  stats: { topAnnualRateBps: null },
};

const isText = (value: unknown): value is string => typeof value === 'string';
const httpsOrNull = (value: unknown): string | null => (isText(value) && value.startsWith('https://') ? value : null);

/**
 * The answer of `GET site` as `SiteInfo`, keeping only well-formed parts: a link that is not
 * `https://` is dropped, a malformed licence is left out. Anything else is {@link EMPTY_SITE_INFO}.
 */
export function readSiteInfo(content: unknown): SiteInfo {
  if (typeof content !== 'object' || content === null) return EMPTY_SITE_INFO;
  const raw = content as Record<string, unknown>;
  const licences = Array.isArray(raw.licences)
    ? raw.licences.filter(
        (entry): entry is SiteInfo['licences'][number] =>
          typeof entry === 'object' &&
          entry !== null &&
          isText((entry as Record<string, unknown>).authority) &&
          isText((entry as Record<string, unknown>).licence) &&
          isText((entry as Record<string, unknown>).number),
      )
    : [];
  const social: SiteInfo['social'] = Array.isArray(raw.social)
    ? raw.social.flatMap((entry: unknown): SiteInfo['social'] => {
        const link = entry as { id?: unknown; href?: unknown } | null;
        const href = httpsOrNull(link?.href);
        const id = link?.id;
        return href && (id === 'x' || id === 'telegram' || id === 'linkedin' || id === 'youtube') ? [{ id, href }] : [];
      })
    : [];
  const stats = (raw.stats ?? {}) as Record<string, unknown>;
  const topBps = stats.topAnnualRateBps;
  return {
    legalEntity: isText(raw.legalEntity) ? raw.legalEntity : null,
    registeredAddress: isText(raw.registeredAddress) ? raw.registeredAddress : null,
    licences,
    legalDetailsAreDemo: raw.legalDetailsAreDemo === true,
    exchangeUrl: httpsOrNull(raw.exchangeUrl),
    miningUrl: httpsOrNull(raw.miningUrl),
    social,
    stats: { topAnnualRateBps: Number.isInteger(topBps) && (topBps as number) > 0 ? (topBps as number) : null },
  };
}

/** `GET site` (`siteEndpoints.getSite`, public): the operator's details, links and the home figures. */
export async function getSite(): Promise<SiteInfo> {
  const response = await request<unknown>(GET_SITE_ROUTE.method, GET_SITE_ROUTE.path, { silent: true });
  return readSiteInfo(response.statusCode === 200 ? unwrap(response) : null);
}

/** How long the answer is reused: the settings change only with a server restart. */
const SITE_STALE_MS = 5 * 60_000;

/** The site information; {@link EMPTY_SITE_INFO} until it arrives or when it fails. */
export function useSite(): SiteInfo {
  const { data } = useQuery({ queryKey: ['site'], queryFn: getSite, staleTime: SITE_STALE_MS, retry: 1 });
  return data ?? EMPTY_SITE_INFO;
}

/** An annual rate in basis points as the percent text of the tiles: 1080 → "10.8%", 600 → "6%". */
export function formatRateBps(bps: number): string {
  return `${(bps / 100).toFixed(2).replace(/\.?0+$/, '')}%`;
}
