import { type EmailFlowContent, type EmailFlowRequest, identityEndpoints } from '@meridian/contracts/identity';
import { useMutation } from '@tanstack/react-query';
import { type ApiResponse, callEndpoint } from '../../../lib/api-client.ts';

/**
 * `POST user/register` (descriptor `identityEndpoints.register`): the Mail (`token`),
 * Verify (`ticket`, `emailCaptcha`) and Password (`password`, `confirm`) steps. Silent: the form
 * shows the first validation message. Resolves to the envelope.
 */
export function registerAccount(body: EmailFlowRequest): Promise<ApiResponse<EmailFlowContent>> {
  return callEndpoint(identityEndpoints.register, { body }, { silent: true });
}

/** Register from the register flow (`mutateAsync` resolves to the envelope). */
export function useRegisterAccount() {
  return useMutation({ mutationFn: registerAccount });
}
