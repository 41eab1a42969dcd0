/** Operator roles: admin does everything, withdrawals moves withdrawals, compliance reviews identity verification, viewer reads. */
export const OPERATOR_ROLES = ['admin', 'withdrawals', 'compliance', 'viewer'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** A back-office operator, as authenticated by its bearer token. */
export interface Operator {
  id: number;
  email: string;
  role: OperatorRole;
}
