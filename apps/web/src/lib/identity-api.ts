import type {
  EmailFlowContent,
  LoginContent,
  SecurityConfig,
  SelfContent,
  SendCodeContent,
} from '@meridian/contracts/identity';
import type { CaptchaEvent } from '@meridian/contracts/security';
import { useQuery } from '@tanstack/react-query';
import { API_VERSION_2, apiClient, unwrap } from './api-client.ts';
import { useUserId } from './session.ts';

/**
 * The identity calls of spec §7 (`user/*`). Login, register and recover calls are silent: in those
 * forms a non-200 shows nothing but the first validation message (spec §8), which the forms do.
 */
export const identityKeys = {
  self: ['identity', 'self'] as const,
  config: ['identity', 'config'] as const,
  sessions: ['identity', 'sessions'] as const,
  signIns: ['identity', 'signins'] as const,
  countries: ['identity', 'countries'] as const,
};

export interface LoginBody {
  email: string;
  password: string;
  token?: string;
  ticket?: string;
  emailCaptcha?: string;
  mfaCode?: string;
  recoveryCode?: string;
}

export const identityApi = {
  login: (body: LoginBody) => apiClient.post<LoginContent>('user/login', body, { silent: true, skipLoginRedirect: true }),
  register: (body: Record<string, string | undefined>) => apiClient.post<EmailFlowContent>('user/register', body, { silent: true }),
  forgetPassword: (body: Record<string, string | undefined>) => apiClient.post<EmailFlowContent>('user/forgetPassword', body, { silent: true }),
  resetPassword: (body: Record<string, string | undefined>) =>
    apiClient.post<EmailFlowContent>('user/resetPassword', body, { silent: true, apiVersion: API_VERSION_2 }),
  /** Send an email code (spec §7 `user/captcha`, silent). */
  sendCode: (event: CaptchaEvent, extra: { email?: string; ticket?: string } = {}) =>
    apiClient.post<SendCodeContent>('user/captcha', { event, ...extra }, { silent: true, skipLoginRedirect: true }),
  self: () => apiClient.get<SelfContent>('user/self', { skipLoginRedirect: true }),
  config: () => apiClient.get<SecurityConfig>('user/config'),
};

/** The signed-in user (`user/self`), only fetched when a user id is stored. */
export function useSelf() {
  const userId = useUserId();
  return useQuery({ queryKey: identityKeys.self, enabled: userId !== null, queryFn: async () => unwrap(await identityApi.self()) });
}

/** The security configuration (`user/config`). */
export function useSecurityConfig(enabled = true) {
  const userId = useUserId();
  return useQuery({ queryKey: identityKeys.config, enabled: enabled && userId !== null, queryFn: async () => unwrap(await identityApi.config()) });
}
