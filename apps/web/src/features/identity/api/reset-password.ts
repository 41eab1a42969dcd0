import { type EmailFlowContent, identityEndpoints, type ResetPasswordRequest } from '@meridian/contracts/identity';
import { useMutation } from '@tanstack/react-query';
import { type ApiResponse, callEndpoint } from '../../../lib/api-client.ts';

/**
 * `POST user/resetPassword` (api-version 2.0 from the descriptor
 * `identityEndpoints.resetPassword`): the recover flow's Password step; the server revokes every
 * session and holds withdrawals for 24 h. Silent: the form shows the first validation message.
 * Resolves to the envelope.
 */
export function resetPassword(body: ResetPasswordRequest): Promise<ApiResponse<EmailFlowContent>> {
  return callEndpoint(identityEndpoints.resetPassword, { body }, { silent: true });
}

/** The recover flow's Password step (`mutateAsync` resolves to the envelope). */
export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
