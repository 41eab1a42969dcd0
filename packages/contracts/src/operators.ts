/**
 * Back-office operator roles. Each operator has one role; 'admin' may do
 * everything. Every operator endpoint declares the roles that may call it (`Endpoint.roles`), the
 * server refuses the others (102 FORBIDDEN) and the back-office web hides what the role cannot do
 * (`mayCall`), reading the same descriptor.
 *
 * - support: reads users, messages, card and limit requests; resets 2FA; notes.
 * - compliance: KYC / investor / qualified-investor / AML review, screening alerts, freeze and unfreeze.
 * - finance: withdrawals, wires, manual adjustments (four eyes), fund and loan operations.
 * - admin: operators and settings, and everything above.
 */
export const OPERATOR_ROLES = ['support', 'compliance', 'finance', 'admin'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** Every role: a read that any operator may make. */
export const ANY_OPERATOR: readonly OperatorRole[] = OPERATOR_ROLES;

/**
 * Whether `role` may call an endpoint declaring `roles` ('admin' always may; no `roles` = admin only).
 * The server's check and the web's show/hide are both this function.
 */
export function mayCall(role: OperatorRole, endpoint: { roles?: readonly OperatorRole[] }): boolean {
  return role === 'admin' || (endpoint.roles ?? []).includes(role);
}
