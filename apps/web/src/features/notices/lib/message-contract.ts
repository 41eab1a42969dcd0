import type {
  MessageEvent,
  MessageItem,
  MessageListContent,
  MessageStatus,
  NoticeCategory,
  UnreadCountContent,
} from '@meridian/contracts/notices';

/**
 * Checks of what the server sends against the notices contract. The zod schemas themselves would put
 * zod on the header's first load (the bell is there), so each field has a small check instead, and
 * `satisfies` turns a change of the contract into a compile error here.
 */
type FieldCheck = (value: unknown) => boolean;

const isString: FieldCheck = (value) => typeof value === 'string';
const isCount: FieldCheck = (value) => typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
const isKeyOf =
  (values: Record<string, true>): FieldCheck =>
  (value) =>
    typeof value === 'string' && Object.hasOwn(values, value);

/** Every category and status of the contract; `satisfies` fails the build when one is missing. */
const CATEGORIES = {
  SECURITY: true,
  ACCOUNT: true,
  DEPOSIT: true,
  WITHDRAW: true,
  EXCHANGE: true,
  FUND: true,
  LOAN: true,
  KYC: true,
  CARD: true,
  TRUST: true,
  SYSTEM: true,
} satisfies Record<NoticeCategory, true>;
const STATUSES = { unread: true, read: true } satisfies Record<MessageStatus, true>;

const MESSAGE_FIELD_CHECKS = {
  id: isString,
  category: isKeyOf(CATEGORIES),
  status: isKeyOf(STATUSES),
  title: isString,
  body: isString,
  link: (value) => value === null || typeof value === 'string',
  createTime: isString,
} satisfies Record<keyof MessageItem, FieldCheck>;

const LIST_FIELD_CHECKS = {
  list: Array.isArray,
  unreadCount: isCount,
  pageID: isCount,
  pageSize: isCount,
  totalPage: isCount,
  totalCount: isCount,
} satisfies Record<keyof MessageListContent, FieldCheck>;

function hasFields(value: unknown, checks: Record<string, FieldCheck>): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return Object.entries(checks).every(([field, check]) => check(record[field]));
}

export function isMessageItem(value: unknown): value is MessageItem {
  return hasFields(value, MESSAGE_FIELD_CHECKS);
}

/** A `message/list` content with only the items that match the contract; null when it is no page. */
export function readMessageList(content: unknown): MessageListContent | null {
  if (!hasFields(content, LIST_FIELD_CHECKS)) return null;
  const page = content as unknown as MessageListContent;
  return { ...page, list: (page.list as unknown[]).filter(isMessageItem) };
}

/** The unread count of a read call's content; null when it does not match. */
export function readUnreadCount(content: unknown): number | null {
  const checks = { unreadCount: isCount } satisfies Record<keyof UnreadCountContent, FieldCheck>;
  return hasFields(content, checks) ? (content as unknown as UnreadCountContent).unreadCount : null;
}

/** The data of a stream event `message` (JSON text); null when it is not JSON or breaks the contract. */
export function parseMessageEvent(data: string): MessageEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  const checks = { message: isMessageItem, unreadCount: isCount } satisfies Record<keyof MessageEvent, FieldCheck>;
  return hasFields(value, checks) ? (value as unknown as MessageEvent) : null;
}
