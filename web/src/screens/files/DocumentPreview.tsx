import { type ReactNode, useEffect, useState } from 'react';

// A Word document (.docx) in the File Manager's preview: the server turns it into cleaned HTML
// (GET <objectPath>/html answers { html }), shown here in a sandboxed frame. The frame is the
// second wall after the server's cleaning: without allow-scripts nothing in it can run, and
// without allow-same-origin it cannot reach the app's cookies, storage or DOM. Its own
// stylesheet sets the type, so the document's markup never meets the app's styles. Links open
// in a tab of their own (allow-popups); that tab leaves the sandbox, as any link from the app would.

export const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
export const DOC_TYPE = 'application/msword';

const STYLES = `
:root { color-scheme: light; --fg: #0f172a; --muted: #475569; --bg: #ffffff; --line: #cbd5e1; --link: #4338ca; }
:root.dark { color-scheme: dark; --fg: #f1f5f9; --muted: #cbd5e1; --bg: #0f172a; --line: #475569; --link: #a5b4fc; }
html { background: var(--bg); color: var(--fg); }
body { margin: 0; font: 16px/1.6 ui-sans-serif, system-ui, -apple-system, "Segoe UI", sans-serif; overflow-wrap: anywhere; }
main { max-width: 46rem; margin: 0 auto; padding: 1.5rem 1.25rem 3rem; }
main > :first-child { margin-top: 0; }
h1, h2, h3, h4, h5, h6 { line-height: 1.25; font-weight: 700; margin: 1.5em 0 0.5em; }
h1 { font-size: 1.875rem; } h2 { font-size: 1.5rem; } h3 { font-size: 1.25rem; }
h4 { font-size: 1.125rem; } h5, h6 { font-size: 1rem; }
p { margin: 0 0 0.9em; }
ul, ol { margin: 0 0 1em; padding-left: 1.5em; }
li > p { margin: 0; }
blockquote { margin: 0 0 1em; padding-left: 1em; border-left: 4px solid var(--line); color: var(--muted); }
table { display: block; max-width: 100%; overflow-x: auto; border-collapse: collapse; margin: 0 0 1em; }
td, th { border: 1px solid var(--line); padding: 0.35em 0.6em; text-align: left; vertical-align: top; }
td > p:last-child, th > p:last-child { margin-bottom: 0; }
a { color: var(--link); }
img { max-width: 100%; height: auto; }
.empty { color: var(--muted); font-style: italic; }
`;

/** The frame's whole page around the cleaned HTML (which holds no script, style or handler). */
function framePage(html: string, dark: boolean, lang: string) {
  const body = html.trim() === '' ? '<p class="empty">This document has no text.</p>' : html;
  return `<!doctype html><html lang="${lang}"${dark ? ' class="dark"' : ''}><head><meta charset="utf-8"><style>${STYLES}</style></head><body><main>${body}</main></body></html>`;
}

/** Whether the app is in dark mode right now (the `dark` class on <html>), following changes. */
function useDarkMode() {
  const [dark, setDark] = useState(() => document.documentElement.classList.contains('dark'));
  useEffect(() => {
    const root = document.documentElement;
    const observer = new MutationObserver(() => setDark(root.classList.contains('dark')));
    observer.observe(root, { attributes: true, attributeFilter: ['class'] });
    setDark(root.classList.contains('dark'));
    return () => observer.disconnect();
  }, []);
  return dark;
}

/** The app's language for the frame's page (a tag of letters and hyphens only: it goes into markup). */
function appLanguage() {
  const lang = document.documentElement.lang;
  return /^[a-z]{2,3}(-[a-z0-9]{1,8})*$/i.test(lang) ? lang : 'en';
}

type Loaded = { html: string } | { error: string } | null;

/** The document's preview; `failed` shows the server's reason (with a Download) when there is none. */
export function DocumentContent({
  objectPath,
  name,
  failed,
}: {
  objectPath: string;
  name: string;
  failed: (reason: string) => ReactNode;
}) {
  const [loaded, setLoaded] = useState<Loaded>(null);
  const dark = useDarkMode();
  useEffect(() => {
    const aborted = new AbortController();
    setLoaded(null);
    fetch(`${objectPath}/html`, { credentials: 'include', signal: aborted.signal })
      .then(async (response) => {
        const body = (await response.json().catch(() => null)) as { html?: unknown; message?: unknown } | null;
        if (response.ok && typeof body?.html === 'string') return setLoaded({ html: body.html });
        const message = typeof body?.message === 'string' ? body.message : null;
        setLoaded({
          error: message ?? `The document could not be shown (${response.status}). Download it to open it.`,
        });
      })
      .catch(() => {
        if (!aborted.signal.aborted) setLoaded({ error: 'The document could not be loaded. Download it to open it.' });
      });
    return () => aborted.abort();
  }, [objectPath]);

  if (loaded === null) {
    return (
      <p role="status" className="text-sm text-slate-300">
        Loading document…
      </p>
    );
  }
  if ('error' in loaded) return failed(loaded.error);
  return (
    <iframe
      key={objectPath}
      title={`Document: ${name}`}
      sandbox="allow-popups allow-popups-to-escape-sandbox"
      srcDoc={framePage(loaded.html, dark, appLanguage())}
      className="h-full w-full rounded bg-white dark:bg-slate-900"
      data-testid="preview-document"
    />
  );
}
