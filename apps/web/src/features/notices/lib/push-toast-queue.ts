import type { MessageItem } from '@meridian/contracts/notices';

/**
 * Messages waiting for the foreground toast. The stream puts them here at once; the toast host,
 * which brings Ant Design, loads on the first one and takes them. Bounded: a burst shows its newest.
 */
const WAITING_MAX = 5;
const waiting: MessageItem[] = [];
const listeners = new Set<() => void>();

export function enqueuePushToast(message: MessageItem): void {
  waiting.push(message);
  if (waiting.length > WAITING_MAX) waiting.splice(0, waiting.length - WAITING_MAX);
  for (const listener of listeners) listener();
}

/** The waiting messages, oldest first; the queue is empty afterwards. */
export function takePushToasts(): MessageItem[] {
  return waiting.splice(0);
}

export function subscribePushToasts(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
