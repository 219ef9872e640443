import type { Services } from '../context.ts';
import type { MailMessage } from '../infra/mail/mailer.ts';
import { DEFAULT_SETTINGS } from '../settings/rules.ts';

export type DeliveryServices = Pick<Services, 'db' | 'config' | 'mailer' | 'logger'>;

/** One notification is one message, however often its delivery is retried. */
const notificationMessageId = (id: string) => `<notification.${id}@scoutbase>`;

interface EmailedNotice {
  title: string;
  message: string;
  link: string | null;
  user: { email: string; firstName: string | null; displayName: string | null };
}

/** Where the app is reached from outside; links in e-mails must be absolute. */
export function appBaseUrl(config: Services['config']) {
  return (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/+$/, '');
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

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
    for (const id of ids) {
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
