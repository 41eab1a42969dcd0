import { identityEndpoints, type LoginContent, type LoginRequest } from '@meridian/contracts/identity';
import { useMutation } from '@tanstack/react-query';
import { type ApiResponse, callEndpoint } from '../../../lib/api-client.ts';

/**
 * `POST user/login` (descriptor `identityEndpoints.login`): the Form step (email,
 * password, human-check `token`) or the Verify step (`ticket` with the factors asked for). Silent,
 * and a 101 does not open the login modal: the form shows the first validation message.
 * Resolves to the envelope, whose failure the form maps onto its fields.
 */
export function logIn(body: LoginRequest): Promise<ApiResponse<LoginContent>> {
  return callEndpoint(identityEndpoints.login, { body }, { silent: true, skipLoginRedirect: true });
}

/** Log in from the login flow (`mutateAsync` resolves to the envelope). */
export function useLogIn() {
  return useMutation({ mutationFn: logIn });
}
