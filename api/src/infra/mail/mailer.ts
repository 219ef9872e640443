import { randomUUID } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

/** Hands one message to a mail system; throws when it was not accepted. */
export interface MailTransport {
  readonly kind: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** Real delivery: an SMTP server (SMTP_URL), with the sender MAIL_FROM. */
export function smtpTransport(url: string, from: string): MailTransport {
  const smtp = nodemailer.createTransport({
    url,
    // A mail server that does not answer must not hold a delivery (and its retries) for minutes.
    connectionTimeout: 15_000,
    greetingTimeout: 15_000,
    socketTimeout: 30_000,
  });
  return {
    kind: 'smtp',
    async send(message) {
      await smtp.sendMail({ from, ...message });
    },
    close: () => smtp.close(),
  };
}

/**
 * The embedded default: each message becomes an RFC 822 .eml file in a folder, so an instance
 * without a mail server still keeps what it would have sent (any mail client opens them).
 */
export function outboxTransport(dir: string, from: string): MailTransport {
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    kind: 'outbox',
    async send(message) {
      const info = await composer.sendMail({ from, ...message });
      await mkdir(dir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${randomUUID()}.eml`;
      // Written aside and renamed, so a tool watching the folder never reads half a message.
      const partial = path.join(dir, `.${name}.partial`);
      await writeFile(partial, info.message as Buffer, { mode: 0o600 });
      await rename(partial, path.join(dir, name));
    },
    close: () => composer.close(),
  };
}

export interface Mailer {
  readonly kind: MailTransport['kind'];
  /**
   * Sends in the background: never throws and never waits for the mail system, so whatever
   * caused the message is not held up or failed by it. Failures are retried, then logged.
   */
  deliver(message: MailMessage): void;
  /** Like deliver, for messages that take work to compose (a database read); a failure there is logged. */
  deliverLater(compose: () => Promise<MailMessage[]>): void;
  /** Resolves once every message handed over so far was sent or given up on. */
  idle(): Promise<void>;
  /** Stops waiting between retries, lets messages in flight finish, and closes the transport. */
  close(): Promise<void>;
}

export interface MailerOptions {
  logger?: Pick<Logger, 'warn' | 'error'>;
  /** Pauses before each retry; their count is how many retries a message gets. */
  retryDelaysMs?: number[];
}

export function createMailer(transport: MailTransport, options: MailerOptions = {}): Mailer {
  const retryDelaysMs = options.retryDelaysMs ?? [2_000, 10_000];
  const pending = new Set<Promise<void>>();
  const closing = new AbortController();

  function pause(ms: number) {
    return new Promise<void>((resolve) => {
      if (closing.signal.aborted) return resolve();
      const timer = setTimeout(resolve, ms);
      closing.signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          resolve();
        },
        { once: true },
      );
    });
  }

  async function attempt(message: MailMessage) {
    for (let tries = 0; ; tries++) {
      try {
        await transport.send(message);
        return;
      } catch (err) {
        const last = tries >= retryDelaysMs.length || closing.signal.aborted;
        const details = { err, to: message.to, subject: message.subject, attempt: tries + 1 };
        if (last) {
          options.logger?.error(details, `e-mail not sent (${transport.kind})`);
          return;
        }
        options.logger?.warn(details, `e-mail failed (${transport.kind}); retrying`);
        await pause(retryDelaysMs[tries] ?? 0);
      }
    }
  }

  function track(work: Promise<void>) {
    const tracked = work.finally(() => pending.delete(tracked));
    pending.add(tracked);
  }

  return {
    kind: transport.kind,
    deliver(message) {
      track(attempt(message));
    },
    deliverLater(compose) {
      track(
        compose().then(
          (messages) => {
            for (const message of messages) track(attempt(message));
          },
          (err) => options.logger?.error({ err }, 'e-mails not composed'),
        ),
      );
    },
    async idle() {
      while (pending.size) await Promise.all(pending);
    },
    async close() {
      closing.abort();
      while (pending.size) await Promise.all(pending);
      transport.close();
    },
  };
}

/** SMTP when SMTP_URL is configured; the outbox folder otherwise. */
export function mailerFromConfig(mail: Config['mail'], options: MailerOptions = {}): Mailer {
  const transport = mail.smtpUrl ? smtpTransport(mail.smtpUrl, mail.from) : outboxTransport(mail.outboxDir, mail.from);
  return createMailer(transport, options);
}
