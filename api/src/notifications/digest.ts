import type { Services } from '../context.ts';
import type { MailMessage } from '../infra/mail/mailer.ts';
import { DEFAULT_SETTINGS } from '../settings/rules.ts';
import { appBaseUrl, escapeHtml } from './mailText.ts';

// Others' uploads to a person's galleries reach them as one digest e-mail per window (MAIL_DIGEST_SECONDS,
// 10 minutes by default), not one e-mail each. The window is a durable job of the job queue: it
// outlives a restart, and whichever instance runs it first sends the one digest.

export const DIGEST_QUEUE = 'mail.digest';
/** Notifications about others' uploads to one's galleries: gathered into the digest. */
export const DIGESTED_TITLES = ['Files added to your gallery'] as const;
/** The uploader's own "Upload complete": in the bell, never e-mailed (they watched it finish). */
export const NOT_EMAILED_TITLES = ['Upload complete'] as const;

type DigestServices = Pick<Services, 'db' | 'config' | 'jobs' | 'mailer' | 'logger'>;

/**
 * Keeps a notice for the person's digest: a job due one window from now sends every notice they
 * have not been e-mailed yet, so the window opens with the first one. The jobs of later notices in
 * the same window find them sent and send nothing.
 */
export async function scheduleDigest(services: Pick<Services, 'config' | 'jobs'>, userId: string) {
  const seconds = services.config.mail.digestSeconds;
  await services.jobs.send(DIGEST_QUEUE, { userId }, { startAfter: seconds, retryLimit: 5, retryBackoff: true });
}

/**
 * Sends the person one e-mail listing every digested notification not e-mailed yet. They are
 * claimed first, in one statement: a second instance, or this job run again after a crash, finds
 * them claimed and sends nothing. A failure to queue the e-mail gives them back for the next try.
 */
export async function sendDigest(services: DigestServices, userId: string): Promise<number> {
  if (!services.mailer) return 0;
  const claimed = await services.db.notification.updateManyAndReturn({
    where: { userId, title: { in: [...DIGESTED_TITLES] }, emailedAt: null },
    data: { emailedAt: new Date() },
    select: { id: true, message: true, link: true, createdAt: true },
  });
  if (claimed.length === 0) return 0;
  const user = await services.db.user.findUnique({
    where: { id: userId },
    select: { email: true, firstName: true, displayName: true, settings: { select: { emailNotifications: true } } },
  });
  const wanted = user?.settings?.emailNotifications ?? DEFAULT_SETTINGS.emailNotifications;
  if (!user || !wanted) return 0;
  const items = claimed.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  const message = digestEmail(user, items, appBaseUrl(services.config));
  try {
    // The Message-ID names what it lists: a retried queueing is the same message to the mail system.
    await services.mailer.queue({ ...message, messageId: `<digest.${items[0]?.id}.${items.length}@scoutbase>` });
  } catch (error) {
    await services.db.notification.updateMany({
      where: { id: { in: items.map((i) => i.id) } },
      data: { emailedAt: null },
    });
    throw error;
  }
  return items.length;
}

export function digestEmail(
  user: { email: string; firstName: string | null; displayName: string | null },
  items: { message: string; link: string | null }[],
  baseUrl: string,
): MailMessage {
  const name = user.firstName || user.displayName;
  const greeting = name ? `Hi ${name},` : 'Hi,';
  const subject =
    items.length === 1 ? 'New photos in your gallery' : `New photos in your galleries (${items.length} updates)`;
  const target = (link: string | null) => `${baseUrl}${link && /^\/(?!\/)/.test(link) ? link : '/'}`;
  const settings = `${baseUrl}/settings`;
  const footer = 'You get this e-mail because Email Notifications is on in your Scoutbase settings.';
  return {
    to: user.email,
    subject,
    text: [
      greeting,
      '',
      'Since the last e-mail:',
      ...items.map((i) => `- ${i.message} ${target(i.link)}`),
      '',
      '--',
      footer,
      settings,
      '',
    ].join('\n'),
    html: [
      '<!doctype html><html><body style="font-family: sans-serif; color: #0f172a">',
      `<p>${escapeHtml(greeting)}</p>`,
      '<p>Since the last e-mail:</p>',
      '<ul>',
      ...items.map((i) => `<li>${escapeHtml(i.message)} <a href="${escapeHtml(target(i.link))}">Open</a></li>`),
      '</ul>',
      `<p style="color: #64748b; font-size: 12px">${escapeHtml(footer)} <a href="${escapeHtml(settings)}">Change it in Settings</a>.</p>`,
      '</body></html>',
    ].join('\n'),
  };
}

/** The digest's worker, on every instance. */
export async function startMailDigest(services: DigestServices) {
  await services.jobs.work<{ userId: string }>(DIGEST_QUEUE, async ({ userId }) => {
    await sendDigest(services, userId);
  });
}
