import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  mail: ParsedMail;
}

/**
 * A real SMTP server on a free local port that keeps what it accepts. `stall(n)` makes it take the
 * next n messages' bytes and never answer them, as a slow mail server does: the sender is caught
 * mid-delivery (a test kills it there), and nothing counts as delivered.
 */
export async function fakeSmtpServer() {
  const received: ReceivedMail[] = [];
  let stalls = 0;
  const stalled: ParsedMail[] = [];
  const waiting = new Set<() => void>();
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // Stalled sessions would hold close() for its default 30 s.
    closeTimeout: 500,
    onData(stream, session, callback) {
      simpleParser(stream).then(
        (mail) => {
          if (stalls > 0) {
            stalls--;
            stalled.push(mail);
          } else {
            received.push({ to: session.envelope.rcptTo.map((r) => r.address), mail });
            callback();
          }
          for (const wake of waiting) wake();
        },
        (err) => callback(err),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    stalled,
    stall(count = 1) {
      stalls += count;
    },
    /** Resolves once `probe` holds, checked after every message. */
    async until(probe: () => boolean, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (!probe()) {
        if (Date.now() > deadline) throw new Error('the mail server did not get what was expected in time');
        await new Promise<void>((resolve) => {
          const wake = () => {
            waiting.delete(wake);
            resolve();
          };
          waiting.add(wake);
          setTimeout(wake, 200);
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
