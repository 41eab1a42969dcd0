/** A bound bank account as the fund forms offer it. */
export interface BankAccountOption {
  id: string;
  label: string;
}

/**
 * The user's bound bank accounts (`GET fund/investor/bankAccount/select`, spec §7), for the USD
 * option of subscribing and redeeming.
 *
 * TODO(issue 17, payments): the bank-account contract (`packages/contracts/src/payments.ts`) is being
 * written on another branch; until it is merged this offers no account, so the USD option shows
 * "add a bank account" with a link to /my/payment/bank-add and cannot be submitted. Replace the body
 * with `callEndpoint(<payments descriptor>.select, {})` and a TanStack Query hook like the others.
 */
export function useBankAccounts(): { data: BankAccountOption[]; isAvailable: boolean } {
  return { data: [], isAvailable: false };
}
