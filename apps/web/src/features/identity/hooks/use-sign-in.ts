import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { getSecurityConfig } from '../../../lib/get-security-config.ts';
import { getSelf } from '../../../lib/get-self.ts';
import { identityKeys } from '../../../lib/identity-keys.ts';
import { setUserId } from '../../../lib/session.ts';

/**
 * Sign-in after an accepted login: stores the account id, reloads every query, loads the user and
 * the security config, calls `onDone` (closes the modal) and goes to `returnTo` when given.
 */
export function useSignIn({ returnTo, onDone }: { returnTo?: string; onDone: () => void }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return async (accountId: string) => {
    setUserId(accountId);
    await queryClient.invalidateQueries();
    await Promise.all([
      queryClient.prefetchQuery({ queryKey: identityKeys.self, queryFn: async () => (await getSelf()).content }),
      queryClient.prefetchQuery({
        queryKey: identityKeys.config,
        queryFn: async () => (await getSecurityConfig()).content,
      }),
    ]);
    onDone();
    if (returnTo) void navigate(returnTo);
  };
}
