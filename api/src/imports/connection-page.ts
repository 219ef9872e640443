import { createHash } from 'node:crypto';

/**
 * The one inline script of the app: the page the provider's consent screen returns to tells the
 * import dialog (which opened it as a popup) how it went and closes; opened without a dialog, it
 * goes back to the file manager. It never changes (what happened rides in data attributes), so the
 * content security policy can allow exactly it by its hash and nothing else inline.
 */
export const CONNECTION_SCRIPT = `const data = document.body.dataset;
const message = { type: 'scoutbase:import-connection', source: data.source, ok: data.ok === 'true' };
if (window.opener) window.opener.postMessage(message, location.origin);
window.close();
setTimeout(() => location.replace('/files?import=' + encodeURIComponent(message.source)), 500);`;

export const CONNECTION_SCRIPT_HASH = `'sha256-${createHash('sha256').update(CONNECTION_SCRIPT).digest('base64')}'`;

export function callbackPage(source: string, ok: boolean, text: string) {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${ok ? 'Connected' : 'Connection failed'}</title></head>
<body style="font-family:system-ui,sans-serif;padding:2rem" data-source="${escapeHtml(source)}" data-ok="${ok}">
<p>${escapeHtml(text)}</p>
<script>${CONNECTION_SCRIPT}</script>
</body></html>`;
}

function escapeHtml(text: string) {
  return text.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}
