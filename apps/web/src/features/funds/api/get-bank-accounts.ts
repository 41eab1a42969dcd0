/**
 * A bound bank account as the fund forms use it: the fields of the payments contract's
 * `bankAccountSchema` (`packages/contracts/src/payments.ts` on the `payments` branch) that they show.
 */
export interface BankAccount {
  id: number;
  bankName: string;
  /** The number a wire credits (the IBAN where the country uses one). */
  accountNumber: string;
  /** A Hong Kong bank: the domestic wire time applies. */
  isDomestic: boolean;
}

/**
 * The user's bound bank accounts (`GET fund/investor/bankAccount/select`, spec §7), for the USD
 * option of subscribing and redeeming; adding and removing them is the payments pages' work.
 *
 * TODO(issue 17, payments): the call's descriptor is `paymentsEndpoints.listBankAccounts` of
 * `@meridian/contracts/payments`, on the `payments` branch. That branch's migration 0031 collides
 * with the funds server's 0031, so it is not merged here; once both are on main, replace this body
 * with
 *   useQuery({ queryKey: fundKeys.bankAccounts, enabled: enabled && userId !== null,
 *     queryFn: async ({ signal }) => unwrap(await callEndpoint(paymentsEndpoints.listBankAccounts, {}, { signal })) })
 * and import `BankAccount` from the contract. Until then no account is offered: the USD option shows
 * "add a bank account" (a link to /my/payment/bank-add) and cannot be submitted.
 */
export function useBankAccounts(enabled: boolean): { data: BankAccount[] | undefined; isPending: boolean } {
  return { data: enabled ? [] : undefined, isPending: false };
}
