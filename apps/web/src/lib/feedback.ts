/**
 * User feedback (toasts and notifications) reachable from outside React — the HTTP client shows
 * messages without a component. The app binds a sink once Ant Design's `App` context is mounted;
 * until then messages wait in a short queue and the app is asked to mount the sink.
 */
export type FeedbackEvent =
  | { kind: 'success'; text: string }
  | { kind: 'error'; text: string }
  | {
      kind: 'notification';
      title: string;
      description: string;
      /** A button under the text that opens a page of this site (e.g. the identity step a refused call needs). */
      action?: { label: string; to: string };
    };

export interface FeedbackSink {
  show(event: FeedbackEvent): void;
}

/** Messages beyond this many, shown before the sink exists, are dropped: a burst is noise. */
const PENDING_MAX = 10;

let sink: FeedbackSink | null = null;
const pending: FeedbackEvent[] = [];
let demandListener: (() => void) | null = null;

export function showFeedback(event: FeedbackEvent): void {
  if (sink) {
    sink.show(event);
    return;
  }
  if (pending.length < PENDING_MAX) pending.push(event);
  demandListener?.();
}

/** Binds the sink and flushes waiting messages; returns the unbind function. */
export function bindFeedbackSink(next: FeedbackSink): () => void {
  sink = next;
  for (const event of pending.splice(0)) next.show(event);
  return () => {
    if (sink === next) sink = null;
  };
}

/** Called when a message waits for a sink, so the app can load the component that provides it. */
export function onFeedbackDemand(listener: (() => void) | null): void {
  demandListener = listener;
}
