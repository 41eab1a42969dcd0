import type { Locale } from '@meridian/contracts/locale';
import { LRUCache } from 'lru-cache';

/**
 * How long a resolved session is reused without reading the database. Changes that end a session's
 * right to act (revoked, deleted, the account closed or its KYC level changed) drop the user's
 * entries at once in every process (`identity_sessions` notifications, migration 0010); this bound
 * only matters while a process cannot hear them (its listening connection is re-opening).
 */
export const SESSION_CACHE_TTL_MS = 5_000;
/** PostgreSQL channel announcing a user id whose sessions changed (migration 0010). */
export const SESSION_CHANNEL = 'identity_sessions';
/** Sessions one process keeps resolved; the least recently used go first. */
export const SESSION_CACHE_ENTRIES_MAX = 20_000;

/** A live session as the last database read saw it. Times are epoch milliseconds. */
export interface CachedSession {
  userId: string;
  sessionId: string;
  kycLevel: number;
  /** The user's language as stored (messages and mails are written in it). */
  locale: Locale;
  expiresAtMs: number;
  lastSeenAtMs: number;
}

/**
 * Resolved sessions per process, keyed by the token's SHA-256 (the raw token is never kept), so an
 * API call does not read the session and its user on every request (two
 * statements of eleven per swap). Bounded (LRU) and short-lived (TTL).
 */
export class SessionCache {
  private readonly entries = new LRUCache<string, CachedSession>({
    max: SESSION_CACHE_ENTRIES_MAX,
    ttl: SESSION_CACHE_TTL_MS,
  });

  get(tokenHash: string): CachedSession | undefined {
    return this.entries.get(tokenHash);
  }

  set(tokenHash: string, session: CachedSession): void {
    this.entries.set(tokenHash, session);
  }

  /** Drop every cached session of `userId` (revocation, status or KYC change). */
  forgetUser(userId: string): void {
    for (const [tokenHash, session] of this.entries.entries()) {
      if (session.userId === userId) this.entries.delete(tokenHash);
    }
  }

  /** Drop everything (the notifications may have been missed). */
  clear(): void {
    this.entries.clear();
  }
}
