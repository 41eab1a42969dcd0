import { z } from 'zod';
import { uuidString } from './limits.ts';
import { defineEndpoint } from './endpoint.ts';
import { pageQuerySchema } from './pagination.ts';

/**
 * Message centre (docs/notices.md). Messages are written in the
 * user's language at the time they are created.
 */
export const NOTICE_CATEGORIES = [
  'SECURITY',
  'ACCOUNT',
  'DEPOSIT',
  'WITHDRAW',
  'EXCHANGE',
  'FUND',
  'LOAN',
  'KYC',
  'CARD',
  'TRUST',
  'SYSTEM',
] as const;
export const noticeCategorySchema = z.enum(NOTICE_CATEGORIES);
export type NoticeCategory = z.infer<typeof noticeCategorySchema>;

export const MESSAGE_STATUSES = ['unread', 'read'] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const messageItemSchema = z.object({
  id: z.string(),
  category: noticeCategorySchema,
  status: z.enum(MESSAGE_STATUSES),
  title: z.string(),
  body: z.string(),
  link: z.string().nullable(),
  /** ISO 8601 instant. */
  createTime: z.string(),
});
export type MessageItem = z.infer<typeof messageItemSchema>;

export const messageListQuerySchema = pageQuerySchema;

/** `GET /api/notice/message/list` content: list, unreadCount, totalPage, totalCount. */
export const messageListContentSchema = z.object({
  list: z.array(messageItemSchema),
  unreadCount: z.number().int(),
  pageID: z.number().int(),
  pageSize: z.number().int(),
  totalPage: z.number().int(),
  totalCount: z.number().int(),
});
export type MessageListContent = z.infer<typeof messageListContentSchema>;

export const messageIdParamsSchema = z.object({ id: uuidString() });

/** Content of the read calls: the unread count after the change. */
export const unreadCountContentSchema = z.object({ unreadCount: z.number().int() });
export type UnreadCountContent = z.infer<typeof unreadCountContentSchema>;

/**
 * `POST /api/notice/fcm/token` body: `token` is the JSON of a Web Push
 * subscription (endpoint and keys) as the browser's PushManager returns it.
 */
export const pushTokenBodySchema = z.strictObject({
  token: z.string().min(1).max(4096),
  platform: z.literal('WEB'),
  deviceId: z
    .string()
    .max(44, { abort: true })
    .regex(/^pro-web-[0-9a-f-]{36}$/, { error: 'validation.deviceId' }),
});
export type PushTokenBody = z.infer<typeof pushTokenBodySchema>;

/** The subscription inside `token`. */
export const webPushSubscriptionSchema = z.object({
  endpoint: z.url().max(2048),
  keys: z.object({ p256dh: z.string().min(1).max(256), auth: z.string().min(1).max(64) }),
});
export type WebPushSubscription = z.infer<typeof webPushSubscriptionSchema>;

/** `GET /api/notice/push/key`: the VAPID public key the browser subscribes with. */
export const vapidKeyContentSchema = z.object({ publicKey: z.string() });

/** Event sent on the message stream (`GET /api/notice/stream`, server-sent events `message`). */
export const messageEventSchema = z.object({ message: messageItemSchema, unreadCount: z.number().int() });
export type MessageEvent = z.infer<typeof messageEventSchema>;

/** Header carrying the device name with the push token. */
export const HEADER_DEVICE_NAME = 'deviceName';

/** Base path of the message centre. */
export const NOTICE_BASE_PATH = '/api/notice';

/**
 * Every message-centre call with its rules, under `NOTICE_BASE_PATH`: the
 * descriptors the server registers its routes from (see `endpoint.ts`). The message stream
 * (`GET stream`, server-sent events of `messageEventSchema`) is no JSON call and has no descriptor.
 */
export const noticeEndpoints = {
  listMessages: defineEndpoint({
    method: 'GET',
    basePath: NOTICE_BASE_PATH,
    path: '/message/list',
    tag: 'notices',
    summary: 'A page of messages, newest first, with the unread count',
    auth: 'user',
    query: messageListQuerySchema,
    content: messageListContentSchema,
  }),
  readMessage: defineEndpoint({
    method: 'POST',
    basePath: NOTICE_BASE_PATH,
    path: '/message/:id/read',
    tag: 'notices',
    summary: 'Mark one message read (no change when already read)',
    auth: 'user',
    params: messageIdParamsSchema,
    content: unreadCountContentSchema,
    codes: ['NOT_FOUND'],
  }),
  readAllMessages: defineEndpoint({
    method: 'POST',
    basePath: NOTICE_BASE_PATH,
    path: '/message/readAll',
    tag: 'notices',
    summary: 'Mark every message read',
    auth: 'user',
    content: unreadCountContentSchema,
  }),
  savePushToken: defineEndpoint({
    method: 'POST',
    basePath: NOTICE_BASE_PATH,
    path: '/fcm/token',
    tag: 'notices',
    summary: 'Store a Web Push subscription for this device',
    auth: 'user',
    body: pushTokenBodySchema,
    content: z.null(),
  }),
  pushKey: defineEndpoint({
    method: 'GET',
    basePath: NOTICE_BASE_PATH,
    path: '/push/key',
    tag: 'notices',
    summary: 'The VAPID public key browsers subscribe with',
    auth: 'none',
    content: vapidKeyContentSchema.nullable(),
  }),
};
