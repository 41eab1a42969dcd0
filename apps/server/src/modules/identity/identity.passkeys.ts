/**
 * Passkeys (WebAuthn), with `@simplewebauthn/server`: registering several per account
 * (named; the security check `PASSKEY_ADD`), listing, renaming, removing (`PASSKEY_REMOVE`), the
 * single-use server-side challenges, and accepting an assertion — to sign in (`identity.sessions.ts`
 * opens the session with the password sign-in's rules) or as the `mfa` factor of a Verify step
 * (`identity.factors.ts`). User verification is required in every ceremony; a signature counter that
 * does not grow (unless the authenticator keeps none: both 0) is refused and logged.
 */
import {
  PASSKEY_CHALLENGE_TTL_MS,
  PASSKEYS_PER_USER_MAX,
  type AssertionOptionsRequest,
  type CeremonyOptionsContent,
  type PasskeyItem,
} from '@meridian/contracts/passkeys';
import type { PasskeyAssertion } from '@meridian/contracts/security';
import {
  type AuthenticationResponseJSON,
  type AuthenticatorTransport,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import { and, desc, eq, gt, isNull, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.ts';
import { DomainError } from '../../platform/http/errors.ts';
import { audit } from './identity.audit.ts';
import { extendWithdrawalHold, hours, type IdentityContext, requireUser, type UserRow } from './identity.internal.ts';
import { passkeyChallenges, passkeyCredentials, users } from './identity.tables.ts';
import { IDENTITY_RULES, type RequestMeta } from './identity.types.ts';

/** The relying party's name shown by authenticators. */
export const RP_NAME = 'Meridian';

/** Public-key algorithms accepted at registration: ES256, EdDSA, RS256 (COSE ids). */
const SUPPORTED_ALGORITHM_IDS = [-7, -8, -257];

type ChallengePurpose = 'register' | 'login' | 'verify';
type CredentialRow = typeof passkeyCredentials.$inferSelect;

/** Where passkeys are valid: the RP ID (a domain) and the page origins answers may come from. */
export interface RelyingParty {
  id: string;
  origins: string[];
}

/**
 * The relying party of a request: the configured RP ID and origins (`WEBAUTHN_RP_ID`,
 * `WEBAUTHN_ORIGINS`, else PUBLIC_URL's host and origin), each part missing taken from the request's
 * own `protocol://host` (development and tests, where no PUBLIC_URL is set).
 */
export function relyingPartyOf(
  configured: { rpId: string | undefined; origins: string[] | undefined } | undefined,
  webOrigin: string | null | undefined,
): RelyingParty {
  const requestUrl = webOrigin ? new URL(webOrigin) : new URL('http://localhost');
  return {
    id: configured?.rpId ?? requestUrl.hostname,
    origins: configured?.origins ?? [requestUrl.origin],
  };
}

/**
 * Whether a signature counter may follow the stored one (WebAuthn §6.1.1): it must grow, except
 * that an authenticator that keeps no counter reports 0 every time (synced passkeys do). A counter
 * at or below the stored one means two copies of the key may exist (a cloned authenticator).
 */
export function isCounterAcceptable(storedCounter: number, receivedCounter: number): boolean {
  if (storedCounter === 0 && receivedCounter === 0) return true;
  return receivedCounter > storedCounter;
}

/** A row as its owner sees it. */
function toItem(row: CredentialRow): PasskeyItem {
  return {
    id: row.id,
    name: row.name,
    transports: row.transports,
    isBackedUp: row.isBackedUp,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

const asTransports = (values: string[]) => values as AuthenticatorTransport[];

/** Store a challenge; @returns its id, which the client sends back with the answer. */
async function issueChallenge(
  ctx: IdentityContext,
  purpose: ChallengePurpose,
  challenge: string,
  userId: string | null,
  sessionId: string | null,
): Promise<string> {
  const [row] = await ctx.db
    .insert(passkeyChallenges)
    .values({
      challenge,
      purpose,
      userId,
      sessionId,
      expiresAt: new Date(ctx.clock.now().getTime() + PASSKEY_CHALLENGE_TTL_MS),
    })
    .returning({ id: passkeyChallenges.id });
  if (!row) throw new Error('challenge insert returned nothing');
  return row.id;
}

/**
 * Take (delete) a live challenge of `purpose` for `userId` (null: a sign-in challenge, of no user).
 * A challenge asked for by a session is only answered from that session. Single use: a second
 * answer, like an expired or unknown id, gets PASSKEY_CHALLENGE_EXPIRED (260).
 * @returns the challenge (base64url) the answer must have signed.
 */
async function takeChallenge(
  ctx: IdentityContext,
  challengeId: string,
  purpose: ChallengePurpose,
  userId: string | null,
  meta: RequestMeta,
): Promise<string> {
  const [row] = await ctx.db
    .delete(passkeyChallenges)
    .where(
      and(
        eq(passkeyChallenges.id, challengeId),
        eq(passkeyChallenges.purpose, purpose),
        gt(passkeyChallenges.expiresAt, ctx.clock.now()),
        userId === null ? isNull(passkeyChallenges.userId) : eq(passkeyChallenges.userId, userId),
        meta.sessionId
          ? or(isNull(passkeyChallenges.sessionId), eq(passkeyChallenges.sessionId, meta.sessionId))
          : isNull(passkeyChallenges.sessionId),
      ),
    )
    .returning({ challenge: passkeyChallenges.challenge });
  if (!row) throw new DomainError('PASSKEY_CHALLENGE_EXPIRED');
  return row.challenge;
}

/** Options to sign a fresh challenge with one of `credentials` (all the browser's when empty). */
async function assertionOptions(
  ctx: IdentityContext,
  purpose: 'login' | 'verify',
  rp: RelyingParty,
  credentials: Pick<CredentialRow, 'credentialId' | 'transports'>[],
  userId: string | null,
  sessionId: string | null,
): Promise<CeremonyOptionsContent> {
  const options = await generateAuthenticationOptions({
    rpID: rp.id,
    userVerification: 'required',
    allowCredentials: credentials.map((row) => ({ id: row.credentialId, transports: asTransports(row.transports) })),
  });
  const challengeId = await issueChallenge(ctx, purpose, options.challenge, userId, sessionId);
  return { challengeId, options: { ...options } };
}

/**
 * Check an assertion against a taken challenge and the stored credential (signature, origin, RP
 * ID, user verification), then the counter, and record the use.
 * @throws DomainError PASSKEY_FAILED (261); PASSKEY_COUNTER_REGRESSED (263), logged and audited.
 */
async function acceptAssertion(
  ctx: IdentityContext,
  credential: CredentialRow,
  response: AuthenticationResponseJSON,
  expectedChallenge: string,
  meta: RequestMeta,
): Promise<void> {
  const rp = relyingPartyOf(ctx.options.webauthn, meta.webOrigin);
  let newCounter: number;
  try {
    const verification = await verifyAuthenticationResponse({
      response,
      expectedChallenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserVerification: true,
      // The counter is judged below (isCounterAcceptable), so that a regression is told apart and logged.
      credential: {
        id: credential.credentialId,
        publicKey: Buffer.from(credential.publicKey, 'base64url'),
        counter: 0,
        transports: asTransports(credential.transports),
      },
    });
    if (!verification.verified || !verification.authenticationInfo.userVerified) throw new Error('not verified');
    newCounter = verification.authenticationInfo.newCounter;
  } catch (error) {
    await audit(ctx, credential.userId, 'passkey.failure', meta, {
      passkeyId: credential.id,
      reason: error instanceof Error ? error.message.slice(0, 200) : 'unknown',
    });
    throw new DomainError('PASSKEY_FAILED');
  }
  if (!isCounterAcceptable(credential.counter, newCounter)) {
    ctx.options.log?.('passkey counter went backwards', {
      userId: credential.userId,
      passkeyId: credential.id,
      storedCounter: credential.counter,
      receivedCounter: newCounter,
    });
    await audit(ctx, credential.userId, 'passkey.counter_regressed', meta, {
      passkeyId: credential.id,
      storedCounter: credential.counter,
      receivedCounter: newCounter,
    });
    throw new DomainError('PASSKEY_COUNTER_REGRESSED');
  }
  // Conditional on the counter read: of two answers racing with the same counter, one wins.
  const updated = await ctx.db
    .update(passkeyCredentials)
    .set({ counter: newCounter, lastUsedAt: ctx.clock.now() })
    .where(and(eq(passkeyCredentials.id, credential.id), eq(passkeyCredentials.counter, credential.counter)))
    .returning({ id: passkeyCredentials.id });
  if (updated.length !== 1) throw new DomainError('PASSKEY_COUNTER_REGRESSED');
}

/**
 * A passkey as the `mfa` factor of a Verify step (login Verify step or security check): the answer
 * to a `verify` challenge of this user, signed by one of their passkeys.
 * @throws DomainError PASSKEY_CHALLENGE_EXPIRED (260), PASSKEY_UNKNOWN (262), PASSKEY_FAILED (261),
 * PASSKEY_COUNTER_REGRESSED (263).
 */
export async function acceptPasskeyFactor(
  ctx: IdentityContext,
  user: UserRow,
  assertion: PasskeyAssertion,
  meta: RequestMeta,
): Promise<void> {
  const challenge = await takeChallenge(ctx, assertion.challengeId, 'verify', user.id, meta);
  const response = assertion.response as AuthenticationResponseJSON;
  const [credential] = await ctx.db
    .select()
    .from(passkeyCredentials)
    .where(and(eq(passkeyCredentials.credentialId, response.id), eq(passkeyCredentials.userId, user.id)))
    .limit(1);
  if (!credential) throw new DomainError('PASSKEY_UNKNOWN');
  await acceptAssertion(ctx, credential, response, challenge, meta);
  await audit(ctx, user.id, 'passkey.used', meta, { passkeyId: credential.id, purpose: 'verify' });
}

/**
 * A passkey sign-in's answer checked: the `login` challenge, the credential (of any account), the
 * signature and counter. The caller applies the sign-in rules (active account, lock) around it.
 * @returns the credential's row (its `userId` is the account signing in).
 * @throws DomainError PASSKEY_CHALLENGE_EXPIRED, PASSKEY_UNKNOWN; from `check` what it throws.
 */
export async function acceptPasskeySignIn(
  ctx: IdentityContext,
  body: { challengeId: string; response: unknown },
  meta: RequestMeta,
  check: (credential: CredentialRow) => Promise<void>,
): Promise<CredentialRow> {
  const challenge = await takeChallenge(ctx, body.challengeId, 'login', null, meta);
  const response = body.response as AuthenticationResponseJSON;
  const [credential] = await ctx.db
    .select()
    .from(passkeyCredentials)
    .where(eq(passkeyCredentials.credentialId, response.id))
    .limit(1);
  if (!credential) {
    await audit(ctx, null, 'login.failure', meta, { reason: 'passkey_unknown' });
    throw new DomainError('PASSKEY_UNKNOWN');
  }
  await check(credential);
  await acceptAssertion(ctx, credential, response, challenge, meta);
  return credential;
}

/** Recount the user's passkeys into `users.passkey_count` (in the transaction that changed them). */
async function recount(tx: DbOrTx, userId: string): Promise<number> {
  const [row] = await tx
    .update(users)
    .set({
      passkeyCount: sql`(SELECT count(*)::int FROM ${passkeyCredentials} WHERE ${passkeyCredentials.userId} = ${userId})`,
    })
    .where(eq(users.id, userId))
    .returning({ passkeyCount: users.passkeyCount });
  return row?.passkeyCount ?? 0;
}

/** The deferred factor check of the route (`SensitiveAction`): check now, use up in the action's transaction. */
export interface FactorCheck {
  check(): Promise<void>;
  consume(tx: DbOrTx): Promise<void>;
}

/** The passkey part of the identity service. */
export function createPasskeyService(ctx: IdentityContext) {
  return {
    /** `GET user/passkeys`: the user's passkeys, newest first. */
    async listPasskeys(userId: string): Promise<PasskeyItem[]> {
      const rows = await ctx.db
        .select()
        .from(passkeyCredentials)
        .where(eq(passkeyCredentials.userId, userId))
        .orderBy(desc(passkeyCredentials.createdAt));
      return rows.map(toItem);
    },

    /**
     * `POST user/passkeys/registration/options`: creation options for a discoverable credential with
     * user verification, excluding the user's passkeys, with a `register` challenge bound to the session.
     * @throws DomainError PASSKEY_LIMIT_REACHED (264) at PASSKEYS_PER_USER_MAX.
     */
    async passkeyRegistrationOptions(userId: string, meta: RequestMeta): Promise<CeremonyOptionsContent> {
      const user = await requireUser(ctx, userId);
      if (user.passkeyCount >= PASSKEYS_PER_USER_MAX)
        throw new DomainError('PASSKEY_LIMIT_REACHED', { max: PASSKEYS_PER_USER_MAX });
      const existing = await ctx.db
        .select({ credentialId: passkeyCredentials.credentialId, transports: passkeyCredentials.transports })
        .from(passkeyCredentials)
        .where(eq(passkeyCredentials.userId, user.id));
      const rp = relyingPartyOf(ctx.options.webauthn, meta.webOrigin);
      const options = await generateRegistrationOptions({
        rpName: RP_NAME,
        rpID: rp.id,
        userName: user.email,
        userDisplayName: user.email,
        userID: new TextEncoder().encode(user.id),
        attestationType: 'none',
        excludeCredentials: existing.map((row) => ({
          id: row.credentialId,
          transports: asTransports(row.transports),
        })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
        supportedAlgorithmIDs: SUPPORTED_ALGORITHM_IDS,
      });
      const challengeId = await issueChallenge(ctx, 'register', options.challenge, user.id, meta.sessionId ?? null);
      return { challengeId, options: { ...options } };
    },

    /**
     * `POST user/passkeys`: register the answer to a `register` challenge under `name`. Order: the
     * security check's factors (nothing used up), the challenge (taken), the attestation (origin, RP
     * ID, user verification), then one transaction stores the credential, recounts, turns the `mfa`
     * factor on for login and trade with the first passkey (as binding the authenticator does), and
     * uses up the email code. Audited `passkey.added` (a security event: the user gets a message).
     * @throws DomainError PASSKEY_LIMIT_REACHED, PASSKEY_CHALLENGE_EXPIRED, PASSKEY_FAILED,
     * PASSKEY_ALREADY_REGISTERED (265); the security check's errors.
     */
    async registerPasskey(
      userId: string,
      body: { name: string; challengeId: string; response: unknown },
      factors: FactorCheck,
      meta: RequestMeta,
    ): Promise<PasskeyItem> {
      const user = await requireUser(ctx, userId);
      if (user.passkeyCount >= PASSKEYS_PER_USER_MAX)
        throw new DomainError('PASSKEY_LIMIT_REACHED', { max: PASSKEYS_PER_USER_MAX });
      await factors.check();
      const challenge = await takeChallenge(ctx, body.challengeId, 'register', user.id, meta);
      const rp = relyingPartyOf(ctx.options.webauthn, meta.webOrigin);
      const response = body.response as RegistrationResponseJSON;
      let info;
      try {
        const verification = await verifyRegistrationResponse({
          response,
          expectedChallenge: challenge,
          expectedOrigin: rp.origins,
          expectedRPID: rp.id,
          requireUserVerification: true,
          supportedAlgorithmIDs: SUPPORTED_ALGORITHM_IDS,
        });
        if (!verification.verified || !verification.registrationInfo.userVerified) throw new Error('not verified');
        info = verification.registrationInfo;
      } catch (error) {
        await audit(ctx, user.id, 'passkey.failure', meta, {
          purpose: 'register',
          reason: error instanceof Error ? error.message.slice(0, 200) : 'unknown',
        });
        throw new DomainError('PASSKEY_FAILED');
      }
      const transports = response.response.transports ?? info.credential.transports ?? [];
      const row = await ctx.db.transaction(async (tx) => {
        const [inserted] = await tx
          .insert(passkeyCredentials)
          .values({
            userId: user.id,
            credentialId: info.credential.id,
            publicKey: Buffer.from(info.credential.publicKey).toString('base64url'),
            counter: info.credential.counter,
            transports: transports.slice(0, 8),
            deviceType: info.credentialDeviceType,
            isBackedUp: info.credentialBackedUp,
            name: body.name,
          })
          .onConflictDoNothing({ target: passkeyCredentials.credentialId })
          .returning();
        if (!inserted) throw new DomainError('PASSKEY_ALREADY_REGISTERED');
        const count = await recount(tx, user.id);
        if (count > PASSKEYS_PER_USER_MAX)
          throw new DomainError('PASSKEY_LIMIT_REACHED', { max: PASSKEYS_PER_USER_MAX });
        if (count === 1 && user.mfaSecret === null)
          await tx.update(users).set({ isLoginMfaOn: true, isTradeMfaOn: true }).where(eq(users.id, user.id));
        await factors.consume(tx);
        return inserted;
      });
      ctx.sessionCache.forgetUser(user.id);
      await audit(ctx, user.id, 'passkey.added', meta, { passkeyId: row.id, name: row.name });
      return toItem(row);
    },

    /** `PATCH user/passkeys/:id`. @throws DomainError NOT_FOUND when it is not the user's. */
    async renamePasskey(userId: string, passkeyId: string, name: string, meta: RequestMeta): Promise<PasskeyItem> {
      const [row] = await ctx.db
        .update(passkeyCredentials)
        .set({ name })
        .where(and(eq(passkeyCredentials.id, passkeyId), eq(passkeyCredentials.userId, userId)))
        .returning();
      if (!row) throw new DomainError('NOT_FOUND');
      await audit(ctx, userId, 'passkey.renamed', meta, { passkeyId, name });
      return toItem(row);
    },

    /**
     * `DELETE user/passkeys/:id` after the security check (`PASSKEY_REMOVE`). Removing the last
     * passkey of an account without the authenticator turns the `mfa` factor off (login and trade,
     * the trade email code back on if nothing else is left) and holds withdrawals 24 hours, as
     * unbinding the authenticator does. Audited `passkey.removed` (a security event).
     * @throws DomainError NOT_FOUND; the security check's errors.
     */
    async removePasskey(userId: string, passkeyId: string, factors: FactorCheck, meta: RequestMeta): Promise<void> {
      const user = await requireUser(ctx, userId);
      const [row] = await ctx.db
        .select({ id: passkeyCredentials.id, name: passkeyCredentials.name })
        .from(passkeyCredentials)
        .where(and(eq(passkeyCredentials.id, passkeyId), eq(passkeyCredentials.userId, user.id)))
        .limit(1);
      if (!row) throw new DomainError('NOT_FOUND');
      await factors.check();
      const isMfaGone = await ctx.db.transaction(async (tx) => {
        const deleted = await tx
          .delete(passkeyCredentials)
          .where(and(eq(passkeyCredentials.id, passkeyId), eq(passkeyCredentials.userId, user.id)))
          .returning({ id: passkeyCredentials.id });
        if (deleted.length !== 1) throw new DomainError('NOT_FOUND');
        const count = await recount(tx, user.id);
        const isGone = count === 0 && user.mfaSecret === null;
        if (isGone) {
          const keepsTradeFactor =
            user.isTradeEmailOn || (user.isTradeSecurityOn && user.securityPasswordHash !== null);
          await tx
            .update(users)
            .set({ isLoginMfaOn: false, isTradeMfaOn: false, ...(keepsTradeFactor ? {} : { isTradeEmailOn: true }) })
            .where(eq(users.id, user.id));
        }
        await factors.consume(tx);
        return isGone;
      });
      if (isMfaGone) await extendWithdrawalHold(ctx, user.id, hours(IDENTITY_RULES.holdAfterFactorChangeHours));
      await audit(ctx, user.id, 'passkey.removed', meta, { passkeyId, name: row.name });
    },

    /**
     * `POST user/passkeys/assertion/options`. `login`: a discoverable sign-in (no account named, no
     * session). `verify`: the `mfa` factor of the signed-in user (`signedInUserId`), or of the login
     * flow named by `email` + `ticket` (checked, not used); lists that user's passkeys.
     * @throws DomainError CAPTCHA_FAILED (119) for a wrong ticket, PASSKEY_UNKNOWN (262) when the
     * user has no passkey, LOGIN_EXPIRED when neither a session nor a ticket names a user.
     */
    async passkeyAssertionOptions(
      body: AssertionOptionsRequest,
      signedInUserId: string | null,
      meta: RequestMeta,
    ): Promise<CeremonyOptionsContent> {
      const rp = relyingPartyOf(ctx.options.webauthn, meta.webOrigin);
      if (body.purpose === 'login') return assertionOptions(ctx, 'login', rp, [], null, null);
      // A login flow's ticket names the user signing in, even when the browser still holds an older session.
      let userId = signedInUserId;
      let sessionId = signedInUserId ? (meta.sessionId ?? null) : null;
      if (body.email && body.ticket) {
        userId = (await ctx.codes.checkTicket(body.ticket, 'login', body.email)).userId;
        sessionId = null;
      }
      if (!userId) throw new DomainError('LOGIN_EXPIRED');
      const credentials = await ctx.db
        .select({ credentialId: passkeyCredentials.credentialId, transports: passkeyCredentials.transports })
        .from(passkeyCredentials)
        .where(eq(passkeyCredentials.userId, userId));
      if (credentials.length === 0) throw new DomainError('PASSKEY_UNKNOWN');
      return assertionOptions(ctx, 'verify', rp, credentials, userId, sessionId);
    },
  };
}
