/**
 * localStorage that never throws: private browsing modes and disabled storage make `localStorage`
 * access throw, and a broken preference must not break the app.
 */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

const memoryFallback = new Map<string, string>();

const memoryStore: KeyValueStore = {
  getItem: (key) => memoryFallback.get(key) ?? null,
  setItem: (key, value) => void memoryFallback.set(key, value),
  removeItem: (key) => void memoryFallback.delete(key),
};

/** The browser's localStorage when usable, otherwise an in-memory stand-in for this page's life. */
export function browserStore(): KeyValueStore {
  try {
    const store = globalThis.localStorage;
    if (!store) return memoryStore;
    return {
      getItem: (key) => {
        try {
          return store.getItem(key);
        } catch {
          return memoryStore.getItem(key);
        }
      },
      setItem: (key, value) => {
        try {
          store.setItem(key, value);
        } catch {
          memoryStore.setItem(key, value);
        }
      },
      removeItem: (key) => {
        try {
          store.removeItem(key);
        } catch {
          memoryStore.removeItem(key);
        }
      },
    };
  } catch {
    return memoryStore;
  }
}

/** Storage keys, in one place so that logout can clear them all. */
export const STORAGE_KEYS = {
  locale: 'meridian.locale',
  userId: 'meridian.userId',
  banners: 'meridian.banners.v1',
} as const;
