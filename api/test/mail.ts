import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import type { TestApp } from './harness.ts';

/** The e-mails the app wrote to its outbox for one address, oldest first, once its mail queue is idle. */
export async function mailsTo(app: TestApp, address: string): Promise<ParsedMail[]> {
  await app.services.mailer?.idle();
  const dir = app.config.mail.outboxDir;
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
  const mails = await Promise.all(files.map(async (file) => simpleParser(await readFile(path.join(dir, file)))));
  const wanted = address.toLowerCase();
  return mails.filter((m) =>
    (Array.isArray(m.to) ? m.to : [m.to]).some((to) => to?.value.some((v) => v.address?.toLowerCase() === wanted)),
  );
}

/** The token of the newest link to `page` (/verify-email, /reset-password) e-mailed to the address. */
export async function tokenMailedTo(app: TestApp, address: string, page: string): Promise<string> {
  const mails = await mailsTo(app, address);
  for (const mail of mails.reverse()) {
    const match = new RegExp(`${page}\\?token=([A-Za-z0-9_-]+)`).exec(mail.text ?? '');
    if (match?.[1]) return match[1];
  }
  throw new Error(`no ${page} link was e-mailed to ${address}`);
}
