import { type ApplyProBody, corporateEndpoints } from '@meridian/contracts/corporate';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { cardKeys } from './card-keys.ts';

/** `POST corporate/pro/apply` (`corporateEndpoints.applyPro`). Silent: the form shows the refusal on its fields. */
export async function applyPro(body: ApplyProBody) {
  return unwrap(await callEndpoint(corporateEndpoints.applyPro, { body }, { silent: true }));
}

/** Send a PRO account application, then refetch the PRO account. */
export function useApplyPro() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: applyPro,
    onSuccess: () => client.invalidateQueries({ queryKey: cardKeys.pro }),
  });
}
