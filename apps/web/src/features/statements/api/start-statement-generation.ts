import { type StatementRequest, statementEndpoints } from '@meridian/contracts/statements';
import { useMutation } from '@tanstack/react-query';
import { callEndpoint } from '../../../lib/api-client.ts';

/**
 * `POST statements/generations` (`statementEndpoints.startGeneration`): start generating the
 * statement of a range of UTC days. Answers the envelope: the page shows a field error (120) on its
 * pickers; another generation still running (250) is a toast from the client.
 */
export async function startStatementGeneration(body: StatementRequest) {
  return callEndpoint(statementEndpoints.startGeneration, { body }, { quietSuccess: true });
}

/** Start a generation (the Generate button). */
export function useStartStatementGeneration() {
  return useMutation({ mutationFn: startStatementGeneration });
}
