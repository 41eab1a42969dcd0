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

/** Query key of the proposed rate-tier changes (under the products' key: a decision refreshes both). */
export const fundSettingChangesKey = [...fundProductsKey, 'changes'] as const;

/** `GET admin/fund-products/changes`: proposed rate-tier changes, newest first. */
export function useFundSettingChanges() {
  return useQuery({
    queryKey: fundSettingChangesKey,
    queryFn: () => adminFetch(fundSettingsEndpoints.listFundSettingChanges, {}),
  });
}

/**
 * `POST admin/fund-products/:id/tiers` (admin): propose the product's tiers; they apply (from the
 * next daily accrual) when a different admin approves.
 * @throws ApiError 120 naming `tiers` (order, last unbounded) or `tiers.N.annualRatePct`.
 */
export function useProposeRateTiers() {
  return useAdminMutation(
    async (input: { productId: string } & UpdateRateTiersBody) =>
      unwrap(
        await adminCall(fundSettingsEndpoints.proposeRateTiers, {
          params: { id: input.productId },
          body: { tiers: input.tiers },
        }),
      ),
    [fundProductsKey],
  );
}

/**
 * `POST admin/fund-products/changes/:id/approve|reject` (admin): decide a proposal.
 * @throws ApiError 153 (one's own), 156 (decided), 176 (the tiers changed since).
 */
export function useDecideFundSettingChange() {
  return useAdminMutation(
    async (input: { id: number; decision: 'approve' | 'reject' }) =>
      unwrap(
        await adminCall(
          input.decision === 'approve'
            ? fundSettingsEndpoints.approveFundSettingChange
            : fundSettingsEndpoints.rejectFundSettingChange,
          { params: { id: input.id } },
        ),
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
