/**
 * The TanStack Query keys of the identity calls several features share (`user/self`, `user/config`,
 * sessions, sign-ins, countries): one place, so a change in one feature refreshes what another shows.
 */
export const identityKeys = {
  self: ['identity', 'self'] as const,
  config: ['identity', 'config'] as const,
  sessions: ['identity', 'sessions'] as const,
  signIns: ['identity', 'signins'] as const,
  countries: ['identity', 'countries'] as const,
  passkeys: ['identity', 'passkeys'] as const,
};
