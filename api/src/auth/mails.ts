import type { MailMessage } from '../infra/mail/mailer.ts';

// The e-mails about an account itself (its address, its password). Plain words and one link; the
// link is spelled out in the text part too, for mail clients that show no HTML.

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

interface AccountMail {
  to: string;
  name?: string | null;
  subject: string;
  /** Paragraphs before the link. */
  lines: string[];
  link: { url: string; label: string };
  /** Paragraph after the link (why they got it, what to do if it was not them). */
  after: string;
}

function accountMail(mail: AccountMail): MailMessage {
  const greeting = mail.name ? `Hi ${mail.name},` : 'Hi,';
  return {
    to: mail.to,
    subject: mail.subject,
    text: [
      greeting,
      '',
      ...mail.lines.flatMap((l) => [l, '']),
      `${mail.link.label}: ${mail.link.url}`,
      '',
      mail.after,
      '',
    ]
      .join('\n')
      .replace(/\n{3,}/g, '\n\n'),
    html: [
      '<!doctype html><html><body style="font-family: sans-serif; color: #0f172a">',
      `<p>${escapeHtml(greeting)}</p>`,
      ...mail.lines.map((l) => `<p>${escapeHtml(l)}</p>`),
      `<p><a href="${escapeHtml(mail.link.url)}">${escapeHtml(mail.link.label)}</a></p>`,
      `<p style="color: #64748b; font-size: 12px">${escapeHtml(mail.after)}</p>`,
      '</body></html>',
    ].join('\n'),
  };
}

export const VERIFY_SUBJECT = 'Verify your e-mail address for Scoutbase';
export const TAKEN_SUBJECT = 'Someone tried to sign up to Scoutbase with your address';
export const RESET_SUBJECT = 'Reset your Scoutbase password';

export function verificationMail(to: string, name: string | null, url: string): MailMessage {
  return accountMail({
    to,
    name,
    subject: VERIFY_SUBJECT,
    lines: [
      'Open the link below to confirm that this address is yours. Until then you can sign in, but not join projects you are invited to.',
      'The link works once, for 24 hours.',
    ],
    link: { url, label: 'Verify my address' },
    after: 'If you did not sign up to Scoutbase, ignore this e-mail: nothing happens without the link.',
  });
}

export function addressTakenMail(to: string, name: string | null, baseUrl: string): MailMessage {
  return accountMail({
    to,
    name,
    subject: TAKEN_SUBJECT,
    lines: [
      'Someone just tried to create a Scoutbase account with this address. You already have one, so nothing was created.',
      'If it was you: sign in with your password, or choose a new one with "Forgot password?" on the sign-in page.',
    ],
    link: { url: `${baseUrl}/signin`, label: 'Sign in' },
    after: 'If it was not you, you need not do anything: your account is unchanged.',
  });
}

export function passwordResetMail(to: string, name: string | null, url: string): MailMessage {
  return accountMail({
    to,
    name,
    subject: RESET_SUBJECT,
    lines: [
      'Open the link below to choose a new password. Setting it signs you out everywhere.',
      'The link works once, for 30 minutes.',
    ],
    link: { url, label: 'Choose a new password' },
    after: 'If you did not ask for this, ignore this e-mail: your password stays as it is.',
  });
}
