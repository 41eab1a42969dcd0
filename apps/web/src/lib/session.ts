import { useSyncExternalStore } from 'react';
import { browserStore, STORAGE_KEYS } from './storage.ts';

/**
 * The signed-in user as the browser knows it: a user id is present. The server session
 * cookie is the real authority; this id only decides what the shell shows (guest buttons or the
 * account menu) until the identity feature loads the user.
 */
const listeners = new Set<() => void>();

function notify(): void {
  for (const listener of listeners) listener();
}

export function getUserId(): string | null {
  return browserStore().getItem(STORAGE_KEYS.userId);
}

export function setUserId(userId: string): void {
  browserStore().setItem(STORAGE_KEYS.userId, userId);
  notify();
}

/** Forget the signed-in user (logout, login expired). Locale and public caches stay. */
export function clearSession(): void {
  browserStore().removeItem(STORAGE_KEYS.userId);
  notify();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  const onStorage = (event: StorageEvent) => {
    if (event.key === STORAGE_KEYS.userId) listener();
  };
  window.addEventListener('storage', onStorage);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('storage', onStorage);
  };
}

/** The signed-in user's id, or null for a guest; re-renders on login, logout and other tabs. */
export function useUserId(): string | null {
  return useSyncExternalStore(subscribe, getUserId, () => null);
}
