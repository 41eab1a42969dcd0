/**
 * Where the notices service lives (spec §7: base /api/notice) and its query keys. The message list
 * of each user is one cache entry, so a different user signing in on this tab never sees another's.
 */
export const NOTICE_BASE_PATH = '/api/notice';
/** Spec §9: page size 10, first page 1. */
export const MESSAGES_PAGE_SIZE = 10;
export const FIRST_PAGE_ID = 1;

export const NOTICES_QUERY_KEY = ['notices'] as const;

export function messagesQueryKey(userId: string) {
  return [...NOTICES_QUERY_KEY, 'messages', userId] as const;
}
