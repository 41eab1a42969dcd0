import { fundEndpoints } from '@meridian/contracts/funds';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { useUserId } from '../../../lib/session.ts';
import { fundKeys } from './fund-keys.ts';

/**
 * `GET fund/v2/product` (`fundEndpoints.product`): every product, current first, with its
 * rates, tiers, windows and the caller's holding. No login modal on 101: the earn page is public and
 * shows its own prompt; a 143 (below level 2) is read by the page from the thrown `ApiError`.
 */
export async function getFundProducts(signal?: AbortSignal) {
  return unwrap(await callEndpoint(fundEndpoints.product, { query: {} }, { signal, skipLoginRedirect: true }));
}

/** The fund products; off for guests. */
export function useFundProducts() {
  const userId = useUserId();
  return useQuery({
    queryKey: fundKeys.products,
    enabled: userId !== null,
    queryFn: ({ signal }) => getFundProducts(signal),
    retry: false,
  });
}
