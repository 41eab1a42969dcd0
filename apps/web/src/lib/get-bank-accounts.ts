import { paymentsEndpoints } from '@meridian/contracts/payments';
import { useQuery } from '@tanstack/react-query';
import { ApiError, callEndpoint, unwrap } from './api-client.ts';
import { useUserId } from './session.ts';

/**
 * The TanStack Query key of the bound bank accounts, shared by the payments pages and the funds'
 * USD option (one feature may not import another), so adding or removing one refreshes both.
 */
export const bankAccountsKey = ['payments', 'bank-accounts'] as const;

/** `GET fund/investor/bankAccount/select` (`paymentsEndpoints.listBankAccounts`): the bound accounts, newest first. */
export async function getBankAccounts() {
  return unwrap(await callEndpoint(paymentsEndpoints.listBankAccounts, {}));
}

/**
 * The user's bound bank accounts; off for guests and while `isEnabled` is false (the funds' modals
 * ask only once the USD option is chosen). A 143 (identity level 2 missing) is not retried: the
 * page shows the verification prompt from the error.
 */
export function useBankAccounts(isEnabled = true) {
  const userId = useUserId();
  return useQuery({
    queryKey: bankAccountsKey,
    enabled: isEnabled && userId !== null,
    queryFn: getBankAccounts,
    retry: (failures, error) => !(error instanceof ApiError) && failures < 2,
  });
}
