import {
  type CreateFixedFundBody,
  fundSettingsEndpoints,
  type UpdateRateTiersBody,
} from '@meridian/contracts/fund-settings';
import { useQuery } from '@tanstack/react-query';
import { unwrap } from '../../../lib/api-client.ts';
import { adminCall, adminFetch } from './admin-call.ts';
import { useAdminMutation } from './use-admin-mutation.ts';

/** Query key of the fund products (under `admin`, forgotten at sign-out). */
export const fundProductsKey = ['admin', 'settings', 'fund-products'] as const;

/** `GET admin/fund-products`: every fund product with its tiers, amount rules and holders. */
export function useFundProducts() {
  return useQuery({ queryKey: fundProductsKey, queryFn: () => adminFetch(fundSettingsEndpoints.listFundProducts, {}) });
}

/**
 * `PUT admin/fund-products/:id/tiers` (admin): the product's tiers, from the next daily accrual.
 * @throws ApiError 120 naming `tiers` (order, last unbounded) or `tiers.N.annualRatePct`.
 */
export function useUpdateRateTiers() {
  return useAdminMutation(
    async (input: { productId: string } & UpdateRateTiersBody) =>
      unwrap(
        await adminCall(fundSettingsEndpoints.updateRateTiers, {
          params: { id: input.productId },
          body: { tiers: input.tiers },
        }),
      ),
    [fundProductsKey],
  );
}

/** `PUT admin/fund-products/:id/active` (admin): open or close a product to new subscriptions. */
export function useSetFundActive() {
  return useAdminMutation(
    async (input: { productId: string; isActive: boolean }) =>
      unwrap(
        await adminCall(fundSettingsEndpoints.setFundActive, {
          params: { id: input.productId },
          body: { isActive: input.isActive },
        }),
      ),
    [fundProductsKey],
  );
}

/**
 * `POST admin/fund-products` (admin): a new fixed fund.
 * @throws ApiError 120 naming the field (raise window, min above max, rate).
 */
export function useCreateFixedFund() {
  return useAdminMutation(
    async (body: CreateFixedFundBody) => unwrap(await adminCall(fundSettingsEndpoints.createFixedFund, { body })),
    [fundProductsKey],
  );
}
