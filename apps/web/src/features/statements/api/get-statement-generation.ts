import { statementEndpoints } from '@meridian/contracts/statements';
import { useQuery } from '@tanstack/react-query';
import { callEndpoint, unwrap } from '../../../lib/api-client.ts';

/** How often a running generation's progress is asked for. */
export const STATEMENT_POLL_MS = 700;

/** `GET statements/generations/:id` (`statementEndpoints.getGeneration`): progress, and the statement once done. */
export async function getStatementGeneration(id: string) {
  return unwrap(await callEndpoint(statementEndpoints.getGeneration, { params: { id } }));
}

/** A generation, polled while it runs; idle without an id. */
export function useStatementGeneration(id: string | null) {
  return useQuery({
    queryKey: ['statements', 'generation', id],
    queryFn: () => getStatementGeneration(id!),
    enabled: id !== null,
    refetchInterval: (query) => (query.state.data?.status === 'RUNNING' ? STATEMENT_POLL_MS : false),
  });
}
