import { statementEndpoints } from '@meridian/contracts/statements';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';

/** `GET statements/generations/latest` (`statementEndpoints.getLatestGeneration`): the user's last generation, or null. */
export async function getLatestStatementGeneration() {
  return unwrap(await callEndpoint(statementEndpoints.getLatestGeneration, {}));
}

/** The last generation, read when the page opens (a running one resumes its progress bar). */
export function useLatestStatementGeneration() {
  return useQuery({ queryKey: ['statements', 'latest'], queryFn: getLatestStatementGeneration });
}
