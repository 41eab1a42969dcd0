/** The TanStack Query keys of the payments calls. */
export const paymentsKeys = {
  bankAccounts: ['payments', 'bank-accounts'] as const,
};
