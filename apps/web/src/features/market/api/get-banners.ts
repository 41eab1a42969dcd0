import type { Banner, BannerListContent } from '@meridian/contracts/banner';
import { endpointPath } from '@meridian/contracts/endpoint';
import type { marketEndpoints } from '@meridian/contracts/market';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { request, unwrap } from '../../../lib/api-client.ts';
import { browserStore, STORAGE_KEYS } from '../../../lib/storage.ts';

/**
 * The route of `marketEndpoints.listBanners`, checked against the descriptor at compile time. The
 * carousel is on the home page's first load, and importing the descriptor itself would bring full
 * zod with it (the home route stays under 150 KB); `readBannerList` checks the answer.
 */
const LIST_BANNERS_ROUTE = { method: 'GET', path: '/market/banner/getList' } as const satisfies Pick<
  typeof marketEndpoints.listBanners,
  'method' | 'path'
>;

/**
 * `GET market/banner/getList` (descriptor `marketEndpoints.listBanners`): the home carousel's banners, under `content.content`.
 * The last good list is kept in localStorage and shown at once on the next visit, then refreshed;
 * a failed refresh keeps what is shown (banners ignore a non-200).
 */
export const BANNERS_QUERY_KEY = ['market', 'banners'] as const;
/** How long a fetched list is fresh before a visit refreshes it. */
const BANNERS_STALE_MS = 60_000;
/** At most this many banners are kept and shown. */
const BANNERS_MAX = 20;

type FieldCheck = (value: unknown) => boolean;
const isString: FieldCheck = (value) => typeof value === 'string';
const isBoolean: FieldCheck = (value) => typeof value === 'boolean';

/**
 * One check per field of the contract's `Banner`: `satisfies` makes a field added to or removed
 * from the contract a compile error here. (The contract's zod schema would do the same at run time
 * but would put zod on the home page's first load.)
 */
const BANNER_FIELD_CHECKS = {
  bannerId: isString,
  bannerImg: isString,
  webLink: isString,
  isBlank: isBoolean,
  title: isString,
} satisfies Record<keyof Banner, FieldCheck>;

export function isBanner(value: unknown): value is Banner {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return Object.entries(BANNER_FIELD_CHECKS).every(([field, check]) => check(record[field]));
}

export function readBannerList(content: unknown): Banner[] | null {
  if (typeof content !== 'object' || content === null) return null;
  const list = (content as Partial<BannerListContent>).content;
  if (!Array.isArray(list)) return null;
  return list.filter(isBanner).slice(0, BANNERS_MAX);
}

interface CachedBanners {
  savedAt: number;
  banners: Banner[];
}

function readCache(): CachedBanners | undefined {
  try {
    const raw = browserStore().getItem(STORAGE_KEYS.banners);
    if (!raw) return undefined;
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const { savedAt, banners } = parsed as { savedAt?: unknown; banners?: unknown };
    const list = readBannerList({ content: banners });
    return typeof savedAt === 'number' && list ? { savedAt, banners: list } : undefined;
  } catch {
    return undefined;
  }
}

function writeCache(banners: Banner[]): void {
  browserStore().setItem(
    STORAGE_KEYS.banners,
    JSON.stringify({ savedAt: Date.now(), banners } satisfies CachedBanners),
  );
}

export async function getBanners(): Promise<Banner[]> {
  const content = unwrap(await request<BannerListContent>(LIST_BANNERS_ROUTE.method, endpointPath(LIST_BANNERS_ROUTE)));
  const banners = readBannerList(content);
  if (!banners) throw new Error('The banner list does not match its contract');
  writeCache(banners);
  return banners;
}

export function useBanners() {
  const [cached] = useState(readCache);
  return useQuery({
    queryKey: BANNERS_QUERY_KEY,
    queryFn: getBanners,
    initialData: cached?.banners,
    initialDataUpdatedAt: cached?.savedAt,
    staleTime: BANNERS_STALE_MS,
    retry: 1,
  });
}
