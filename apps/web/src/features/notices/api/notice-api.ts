/**
 * The query keys and paging constants of the notices calls (the service's base path, /api/notice,
 * comes with each call's descriptor in `noticeEndpoints`). The message list of each user is one
 * cache entry, so a different user signing in on this tab never sees another's.
 */
/** Page size 10, first page 1. */
export const MESSAGES_PAGE_SIZE = 10;
export const FIRST_PAGE_ID = 1;

export const NOTICES_QUERY_KEY = ['notices'] as const;

export function messagesQueryKey(userId: string) {
  return [...NOTICES_QUERY_KEY, 'messages', userId] as const;
}
