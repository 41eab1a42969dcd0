export { OPERATOR_ROLES, type OperatorRole } from '@meridian/contracts/operators';
import type { OperatorRole } from '@meridian/contracts/operators';

/** A back-office operator, as authenticated by its session or bearer token. */
export interface Operator {
  id: number;
  email: string;
  role: OperatorRole;
}
