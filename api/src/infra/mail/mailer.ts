import { randomUUID } from 'node:crypto';
import { mkdir, readdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { Logger } from 'pino';
import type { Config } from '../../config.ts';
import type { JobQueue } from '../jobs/queue.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Fixed for a message that may be sent twice (a retry after a crash), so mail systems see one. */
  messageId?: string;
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
      const { messageId, ...content } = message;
      await smtp.sendMail({ from, ...content, ...(messageId && { messageId }) });
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
      const { messageId, ...content } = message;
      await mkdir(dir, { recursive: true });
      // A message sent again (a retry after a crash) keeps its one file.
      const id = messageId ? messageId.replace(/[^A-Za-z0-9.@_-]/g, '') : randomUUID();
      if (messageId && (await readdir(dir)).some((file) => file.endsWith(`-${id}.eml`))) return;
      const info = await composer.sendMail({ from, ...content, ...(messageId && { messageId }) });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${id}.eml`;
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
   * Queues the message as a durable job: sent in the background, retried with backoff, and still
   * sent after a restart. Never throws and never waits for the mail system, so whatever caused
   * the message is not held up or failed by it.
   */
  deliver(message: MailMessage): void;
  /** Like deliver, for messages that take work to compose (a database read); a failure there is logged. */
  deliverLater(compose: () => Promise<MailMessage[]>): void;
  /** Queues the message as deliver does, for a job that must know it is queued: rejects when it could not be. */
  queue(message: MailMessage): Promise<void>;
  /** Resolves once every message handed over so far is queued, and the mail queue has none left to send. */
  idle(): Promise<void>;
  /** Waits for messages being queued, and closes the transport (close the job queue first). */
  close(): Promise<void>;
}

export const MAIL_QUEUE = 'mail.send';

export interface MailerOptions {
  logger?: Pick<Logger, 'warn' | 'error'>;
  /** Retries after the first attempt, and the pause before the first retry (doubled each time). */
  retryLimit?: number;
  retryDelaySeconds?: number;
}

/**
 * Delivery through the job queue. A job is one message; a delivery interrupted by a crash is made
 * again after restart. The Message-ID is fixed when the message is queued, so a message a crash
 * hit after the mail server took it (the only moment a second copy can go out) is one message to
 * the recipient's mail system.
 */
export async function createMailer(
  transport: MailTransport,
  jobs: JobQueue,
  options: MailerOptions = {},
): Promise<Mailer> {
  const pending = new Set<Promise<void>>();
  const host = 'scoutbase';

  await jobs.work<{ message: MailMessage & { messageId: string } }>(
    MAIL_QUEUE,
    async ({ message }) => {
      try {
        await transport.send(message);
      } catch (err) {
        options.logger?.warn({ err, to: message.to, subject: message.subject }, `e-mail failed (${transport.kind})`);
        throw err;
      }
    },
    { concurrency: 2 },
  );

  function queue(message: MailMessage) {
    const messageId = message.messageId ?? `<${randomUUID()}@${host}>`;
    return jobs.send(
      MAIL_QUEUE,
      { message: { ...message, messageId } },
      {
        retryLimit: options.retryLimit ?? 6,
        retryDelaySeconds: options.retryDelaySeconds ?? 10,
        retryBackoff: true,
        // The SMTP transport gives up on a silent server well within this.
        timeoutSeconds: 120,
      },
    );
  }

  function track(work: Promise<unknown>) {
    const tracked = work.then(
      () => {},
      (err) => options.logger?.error({ err }, 'e-mail not queued'),
    );
    const settled = tracked.finally(() => pending.delete(settled));
    pending.add(settled);
  }

  return {
    kind: transport.kind,
    deliver(message) {
      track(queue(message));
    },
    async queue(message) {
      await queue(message);
    },
    deliverLater(compose) {
      track(
        compose().then(async (messages) => {
          for (const message of messages) await queue(message);
        }),
      );
    },
    async idle() {
      while (pending.size) await Promise.all(pending);
      for (;;) {
        const mail = (await jobs.stats()).find((q) => q.name === MAIL_QUEUE);
        if (!mail || mail.queued + mail.active === 0) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async close() {
      while (pending.size) await Promise.all(pending);
      transport.close();
    },
  };
}

/** SMTP when SMTP_URL is configured; the outbox folder otherwise. */
export function mailerFromConfig(mail: Config['mail'], jobs: JobQueue, options: MailerOptions = {}): Promise<Mailer> {
  const transport = mail.smtpUrl ? smtpTransport(mail.smtpUrl, mail.from) : outboxTransport(mail.outboxDir, mail.from);
  return createMailer(transport, jobs, options);
}
