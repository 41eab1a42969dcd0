import { z } from 'zod';
import { pageQuerySchema } from './pagination.ts';

/**
 * Message centre (spec §3 message item, §4 messages, §7 notices). Messages are written in the
 * user's language at the time they are created.
 */
export const NOTICE_CATEGORIES = ['SECURITY', 'ACCOUNT', 'DEPOSIT', 'WITHDRAW', 'EXCHANGE', 'FUND', 'LOAN', 'KYC', 'CARD', 'SYSTEM'] as const;
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

/** `GET /api/notice/message/list` content (spec §7): list, unreadCount, totalPage, totalCount. */
export const messageListContentSchema = z.object({
  list: z.array(messageItemSchema),
  unreadCount: z.number().int(),
  pageID: z.number().int(),
  pageSize: z.number().int(),
  totalPage: z.number().int(),
  totalCount: z.number().int(),
});
export type MessageListContent = z.infer<typeof messageListContentSchema>;

export const messageIdParamsSchema = z.object({ id: z.uuid() });

/** Content of the read calls: the unread count after the change. */
export const unreadCountContentSchema = z.object({ unreadCount: z.number().int() });
export type UnreadCountContent = z.infer<typeof unreadCountContentSchema>;

/**
 * `POST /api/notice/fcm/token` body (spec §3 push token): `token` is the JSON of a Web Push
 * subscription (endpoint and keys) as the browser's PushManager returns it.
 */
export const pushTokenBodySchema = z.strictObject({
  token: z.string().min(1).max(4096),
  platform: z.literal('WEB'),
  deviceId: z.string().regex(/^pro-web-[0-9a-f-]{36}$/, { error: 'validation.deviceId' }),
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

/** Header carrying the device name with the push token (spec §7). */
export const HEADER_DEVICE_NAME = 'deviceName';
