import nodemailer from 'nodemailer';

/**
 * Outgoing mail (docs/architecture.md "Outside world"): SMTP through nodemailer when `SMTP_URL` is set; otherwise the
 * identity module's outbox stands in. Business code sees only this interface.
 */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  /** Free-form label stored with the message (e.g. the code's event), for the dev mailbox. */
  tag?: string;
}

export interface Mailer {
  /** Deliver one message. Rejects when the transport refuses it. */
  send(message: MailMessage): Promise<void>;
}

/**
 * Bounds of one SMTP attempt (ms): an unreachable or silent server fails the attempt within these
 * instead of nodemailer's two-minute defaults, so the outbox's retry takes over.
 */
export const SMTP_TIMEOUTS_MS = { connectionTimeout: 5_000, greetingTimeout: 5_000, socketTimeout: 15_000 } as const;

/** A mailer over SMTP (`smtp://user:pass@host:587`, `smtps://…`); each send is one bounded attempt. */
export function createSmtpMailer(smtpUrl: string, from: string): Mailer {
  const transport = nodemailer.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS_MS });
  return {
    async send(message) {
      await transport.sendMail({ from, to: message.to, subject: message.subject, text: message.text });
    },
  };
}
