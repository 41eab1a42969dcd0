/**
 * Outgoing SMS (docs/architecture.md "Outside world"): an HTTP provider adapter in production; the identity module's
 * outbox is the embedded default. Numbers are E.164 (`+85291234567`).
 */
export interface SmsMessage {
  to: string;
  text: string;
  tag?: string;
}

export interface SmsSender {
  /** Deliver one message. Rejects when the provider refuses it. */
  send(message: SmsMessage): Promise<void>;
}
