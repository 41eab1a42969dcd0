import { type BannerBody, backOfficeBannerEndpoints } from '@meridian/contracts/back-office';
import { useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../lib/api-client.ts';
import { adminCall, adminFetch, adminKeys } from './admin-call.ts';
import { useAdminMutation } from './use-admin-mutation.ts';

/** `GET admin/banners`: every home-page banner in display order, each with its state now. */
export function listBanners() {
  return adminFetch(backOfficeBannerEndpoints.listBanners, {});
}

/** The banners page's table. */
export function useBanners() {
  return useQuery({ queryKey: [...adminKeys.banners, 'list'], queryFn: listBanners });
}

/**
 * `POST admin/banners` (no `id`) or `PUT admin/banners/:id`: add or edit a banner.
 * @throws ApiError on a refusal (120 names the bad fields in `response.content.fields`).
 */
export async function saveBanner({ id, body }: { id: string | null; body: BannerBody }) {
  return id === null
    ? unwrap(await adminCall(backOfficeBannerEndpoints.createBanner, { body }))
    : unwrap(await adminCall(backOfficeBannerEndpoints.updateBanner, { params: { id }, body }));
}

/** Save mutation of the banners page; refreshes the list. */
export function useSaveBanner() {
  return useAdminMutation(saveBanner, [adminKeys.banners]);
}

/**
 * `POST admin/banners/order`: every banner's id once, in the new display order.
 * @throws ApiError on a refusal (120 `ids` when the list is not every banner once).
 */
export async function reorderBanners(ids: string[]) {
  return unwrap(await adminCall(backOfficeBannerEndpoints.reorderBanners, { body: { ids } }));
}

/** Reorder mutation of the banners page; refreshes the list. */
export function useReorderBanners() {
  return useAdminMutation(reorderBanners, [adminKeys.banners]);
}
