import type { Services } from '../context.ts';

/** Where the app is reached from outside; links in e-mails must be absolute. */
export function appBaseUrl(config: Services['config']) {
  return (config.publicUrl ?? `http://localhost:${config.port}`).replace(/\/+$/, '');
}

export const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);
