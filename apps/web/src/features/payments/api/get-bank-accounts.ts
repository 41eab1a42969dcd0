import { paymentsEndpoints } from '@meridian/contracts/payments';
import { useQuery } from '@tanstack/react-query';
import { ApiError, callEndpoint, unwrap } from '../../../lib/api-client.ts';
import { useUserId } from '../../../lib/session.ts';
import { paymentsKeys } from './payments-keys.ts';

/** `GET fund/investor/bankAccount/select` (spec §7, `paymentsEndpoints.listBankAccounts`): the bound accounts, newest first. */
export async function getBankAccounts() {
  return unwrap(await callEndpoint(paymentsEndpoints.listBankAccounts, {}));
}

/**
 * The user's bound bank accounts; off for guests. A 143 (identity level 2 missing) is not retried:
 * the page shows the verification prompt from the error (`kycGateOf`).
 */
export function useBankAccounts() {
  const userId = useUserId();
  return useQuery({
    queryKey: paymentsKeys.bankAccounts,
    enabled: userId !== null,
    queryFn: getBankAccounts,
    retry: (failures, error) => !(error instanceof ApiError) && failures < 2,
  });
}
