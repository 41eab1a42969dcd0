import type { OperatorSession } from '@meridian/contracts/back-office';
import { mayCall } from '@meridian/contracts/operators';
import { createContext, useContext } from 'react';

/** The signed-in operator, provided by the back-office layout to every page under it. */
export const OperatorContext = createContext<OperatorSession | null>(null);

/** The signed-in operator's session; only inside the back-office layout. */
export function useOperatorSessionContext(): OperatorSession {
  const session = useContext(OperatorContext);
  if (!session) throw new Error('useOperatorSessionContext outside the back-office layout');
  return session;
}

/**
 * Whether the signed-in operator's role may make `endpoint`'s call: the same `mayCall` and the same
 * descriptor as the server, so a button shows exactly when its call would be allowed.
 */
export function useMayCall(endpoint: Parameters<typeof mayCall>[1]): boolean {
  return mayCall(useOperatorSessionContext().operator.role, endpoint);
}
