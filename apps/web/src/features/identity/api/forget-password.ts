import { type EmailFlowContent, type EmailFlowRequest, identityEndpoints } from '@meridian/contracts/identity';
import { useMutation } from '@tanstack/react-query';
import { type ApiResponse, callEndpoint } from '../../../lib/api-client.ts';

/**
 * `POST user/forgetPassword` (descriptor `identityEndpoints.forgetPassword`): the
 * recover flow's Mail (`token`) and Verify (`ticket`, `emailCaptcha`) steps. Silent: the form shows
 * the first validation message. Resolves to the envelope.
 */
export function forgetPassword(body: EmailFlowRequest): Promise<ApiResponse<EmailFlowContent>> {
  return callEndpoint(identityEndpoints.forgetPassword, { body }, { silent: true });
}

/** The recover flow's first two steps (`mutateAsync` resolves to the envelope). */
export function useForgetPassword() {
  return useMutation({ mutationFn: forgetPassword });
}
