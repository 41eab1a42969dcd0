import type { Country, MfaKeyContent, SecurityConfig, SessionItem, SignInItem } from '@meridian/contracts/identity';
import { useQuery } from '@tanstack/react-query';
import { API_VERSION_2, apiClient, unwrap } from '../../../lib/api-client.ts';
import { identityKeys } from '../../../lib/identity-api.ts';

/** Security-settings calls (spec §7 `user/config*`, `user/security/password`, mobile, sessions). */
export const securityApi = {
  switchConfig: (body: Record<string, unknown>) => apiClient.post<SecurityConfig>('user/config/switch', body),
  mfaKey: () => apiClient.get<MfaKeyContent>('user/config/mfa/key'),
  bindMfa: (body: Record<string, unknown>) => apiClient.post<{ recoveryCodes: string[] }>('user/config/mfa/key', body),
  unbindMfa: (body: Record<string, unknown>) => apiClient.delete<null>('user/config/mfa/key', { body }),
  setSecurityPassword: (body: Record<string, unknown>) => apiClient.post<SecurityConfig>('user/security/password', body),
  changePassword: (body: Record<string, unknown>) => apiClient.post<null>('user/password', body),
  sendMobileCode: (body: { mobileCountry: string; mobile: string }) => apiClient.post<{ maskedTo: string }>('user/mobile/captcha', body, { silent: true }),
  bindMobile: (body: Record<string, unknown>) => apiClient.post<SecurityConfig>('user/web/mobile/bind', body, { apiVersion: API_VERSION_2 }),
  sendNewEmailCode: (body: { email: string }) => apiClient.post<{ maskedTo: string }>('user/email/captcha', body, { silent: true }),
  revokeSession: (id: string) => apiClient.delete<null>(`user/sessions/${id}`),
};

export function useSessions() {
  return useQuery({ queryKey: identityKeys.sessions, queryFn: async () => unwrap(await apiClient.get<SessionItem[]>('user/sessions')) });
}

export function useSignIns() {
  return useQuery({ queryKey: identityKeys.signIns, queryFn: async () => unwrap(await apiClient.get<SignInItem[]>('user/signins')) });
}

export function useCountries() {
  return useQuery({
    queryKey: identityKeys.countries,
    staleTime: Infinity,
    queryFn: async () => unwrap(await apiClient.get<Country[]>('user/country/list', { silent: true })),
  });
}

export function useMfaKey(enabled: boolean) {
  return useQuery({ queryKey: ['identity', 'mfa-key'], enabled, staleTime: Infinity, queryFn: async () => unwrap(await securityApi.mfaKey()) });
}
