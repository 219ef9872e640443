import type { Services } from '../context.ts';
import type { MailMessage } from '../infra/mail/mailer.ts';
import { DEFAULT_SETTINGS } from '../settings/rules.ts';
import { DIGESTED_TITLES, NOT_EMAILED_TITLES, scheduleDigest } from './digest.ts';
import { appBaseUrl, escapeHtml } from './mailText.ts';

/** Without the job queue (the account mails' services) nothing is gathered into digests. */
export type DeliveryServices = Pick<Services, 'db' | 'config' | 'mailer' | 'logger'> & Partial<Pick<Services, 'jobs'>>;

/** One notification is one message, however often its delivery is retried. */
const notificationMessageId = (id: string) => `<notification.${id}@scoutbase>`;

interface EmailedNotice {
  title: string;
  message: string;
  link: string | null;
  user: { email: string; firstName: string | null; displayName: string | null };
}

export { appBaseUrl } from './mailText.ts';

/** The e-mail for one notification: its title as subject, its message and a link to where it points. */
export function notificationEmail(notice: EmailedNotice, baseUrl: string): MailMessage {
  // Joined as text so a PUBLIC_URL with a path (https://example.com/scout) keeps it.
  const inApp = notice.link && /^\/(?!\/)/.test(notice.link) ? notice.link : '/';
  const target = `${baseUrl}${inApp}`;
  const settings = `${baseUrl}/settings`;
  const name = notice.user.firstName || notice.user.displayName;
  const greeting = name ? `Hi ${name},` : 'Hi,';
  const footer = 'You get this e-mail because Email Notifications is on in your Scoutbase settings.';
  return {
    to: notice.user.email,
    subject: notice.title,
    text: [greeting, '', notice.message, '', `Open in Scoutbase: ${target}`, '', '--', footer, settings, ''].join('\n'),
    html: [
      '<!doctype html><html><body style="font-family: sans-serif; color: #0f172a">',
      `<p>${escapeHtml(greeting)}</p>`,
      `<p>${escapeHtml(notice.message)}</p>`,
      `<p><a href="${escapeHtml(target)}">Open in Scoutbase</a></p>`,
      `<p style="color: #64748b; font-size: 12px">${escapeHtml(footer)} <a href="${escapeHtml(settings)}">Change it in Settings</a>.</p>`,
      '</body></html>',
    ].join('\n'),
  };
}

const digested: readonly string[] = DIGESTED_TITLES;
const notEmailed: readonly string[] = NOT_EMAILED_TITLES;

/**
 * The notifications to e-mail one by one: one's own uploads are not e-mailed at all, and others'
 * uploads to one's galleries wait for the person's digest (digest.ts), whose window this opens.
 */
async function mailedNow(services: DeliveryServices, ids: string[]) {
  const rows = await services.db.notification.findMany({
    where: { id: { in: ids } },
    select: { id: true, userId: true, title: true },
  });
  const digests = new Set(rows.filter((r) => digested.includes(r.title)).map((r) => r.userId));
  const { jobs } = services;
  if (jobs) for (const userId of digests) await scheduleDigest({ config: services.config, jobs }, userId);
  return rows.filter((r) => !digested.includes(r.title) && !notEmailed.includes(r.title)).map((r) => r.id);
}

/**
 * E-mails the people whose Email Notifications switch is on about notifications just written.
 * Call after the writing transaction committed. Runs in the background: a database or mail
 * failure is logged and never reaches the action that caused the notification. Each message is
 * a job of the mail queue (retried, and sent after a restart).
 */
export function emailNotifications(services: DeliveryServices, ids: string[]) {
  if (ids.length === 0) return;
  services.mailer?.deliverLater(async () => {
    const messages: MailMessage[] = [];
    for (const id of await mailedNow(services, ids)) {
      // Claimed once, before sending: an updated notice (more uploads) or a second instance sends nothing.
      const claimed = await services.db.notification.updateMany({
        where: { id, emailedAt: null },
        data: { emailedAt: new Date() },
      });
      if (claimed.count !== 1) continue;
      const notice = await services.db.notification.findUnique({
        where: { id },
        select: {
          title: true,
          message: true,
          link: true,
          user: {
            select: {
              email: true,
              firstName: true,
              displayName: true,
              settings: { select: { emailNotifications: true } },
            },
          },
        },
      });
      const wanted = notice?.user.settings?.emailNotifications ?? DEFAULT_SETTINGS.emailNotifications;
      if (notice && wanted)
        messages.push({
          ...notificationEmail(notice, appBaseUrl(services.config)),
          messageId: notificationMessageId(id),
        });
    }
    return messages;
  });
}
