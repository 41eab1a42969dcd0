/**
 * Request and response contracts of the identity module (user state, login/verify/register
 * payloads and their validation; `user/*`). One schema per endpoint, used by the server to validate and
 * by the web forms, so the two cannot drift.
 */
export * from './identity/fields.ts';
export * from './identity/login.ts';
export * from './identity/codes.ts';
export * from './identity/security.ts';
export * from './identity/endpoints.ts';
