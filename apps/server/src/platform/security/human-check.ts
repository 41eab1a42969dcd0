import { type Challenge, createChallenge, randomInt, type Solution, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { systemClock } from '../clock/clock.ts';

/**
 * Self-hosted human check: ALTCHA proof-of-work v2 (no third party, docs/architecture.md "Outside world"). The server
 * signs a challenge whose answer is a counter below `maxCounter`; the widget finds it by brute force
 * and submits `base64(JSON {challenge, solution})` as the `token`. Each challenge's nonce may be
 * accepted once: the caller supplies `markUsed`, which must be atomic (a unique insert).
 *
 * Challenges are dated by the machine's clock (`systemClock`), not the app's: altcha-lib checks a
 * challenge's `expiresAt` against the machine's time, and so does the browser's widget, so a challenge
 * dated by a test clock set in the past would be refused as expired. A challenge is a ten-minute
 * proof of work; no business rule reads its date.
 */
export interface HumanCheckOptions {
  /** Secret that signs challenges (HMAC-SHA-256). */
  hmacSecret: string;
  /** Largest counter the client may need to try: the work factor (≈ maxCounter/2 hashes on average). */
  maxCounter: number;
  /** How long a challenge stays solvable. */
  challengeTtlMs: number;
}

/** Why a token was refused (logged, never shown in detail to the caller). */
export type HumanCheckFailure = 'malformed' | 'expired' | 'invalid' | 'reused';

const ALGORITHM = 'SHA-256';

/** Issue a signed challenge for the widget. */
export async function createHumanCheckChallenge(options: HumanCheckOptions): Promise<Challenge> {
  return createChallenge({
    algorithm: ALGORITHM,
    cost: 1,
    counter: randomInt(Math.max(1, Math.floor(options.maxCounter / 4)), Math.max(2, options.maxCounter)),
    deriveKey,
    expiresAt: new Date(systemClock.now().getTime() + options.challengeTtlMs),
    hmacSignatureSecret: options.hmacSecret,
    hmacKeySignatureSecret: `${options.hmacSecret}:key`,
  });
}

interface DecodedPayload {
  challenge: Challenge;
  solution: Solution;
}

function decode(token: string): DecodedPayload | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(token, 'base64').toString('utf8'));
    if (typeof value !== 'object' || value === null || !('challenge' in value) || !('solution' in value)) return null;
    const { challenge, solution } = value as DecodedPayload;
    if (typeof challenge?.parameters?.nonce !== 'string' || typeof solution?.counter !== 'number') return null;
    return { challenge, solution };
  } catch {
    return null;
  }
}

/**
 * Verify a widget token. Resolves to null when accepted (and now used up), or the failure reason.
 * `markUsed(nonce, expiresAt)` returns false when the nonce was already used.
 */
export async function verifyHumanCheckToken(
  options: HumanCheckOptions,
  token: string,
  markUsed: (nonce: string, expiresAt: Date) => Promise<boolean>,
): Promise<HumanCheckFailure | null> {
  const payload = decode(token);
  if (!payload) return 'malformed';
  if (payload.challenge.parameters.algorithm !== ALGORITHM) return 'invalid';
  let result;
  try {
    result = await verifySolution({
      challenge: payload.challenge,
      solution: payload.solution,
      deriveKey,
      hmacSignatureSecret: options.hmacSecret,
      hmacKeySignatureSecret: `${options.hmacSecret}:key`,
    });
  } catch {
    return 'invalid';
  }
  if (result.expired) return 'expired';
  if (!result.verified) return 'invalid';
  const expiresAtSeconds =
    payload.challenge.parameters.expiresAt ?? Math.floor((systemClock.now().getTime() + options.challengeTtlMs) / 1000);
  const isFirstUse = await markUsed(payload.challenge.parameters.nonce, new Date(expiresAtSeconds * 1000));
  return isFirstUse ? null : 'reused';
}
