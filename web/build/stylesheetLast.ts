import type { Plugin } from 'vite';

/**
 * Moves the app's stylesheet from the page's head to the end of its body. In the head it holds the
 * first paint until it has arrived, and on a phone it arrives with the scripts, so the loading
 * screen (styled inline, index.html) waited for them too. At the end of the body it holds nothing
 * before it, and the scripts still run only once it has loaded: a module script waits for every
 * stylesheet the parser met before it ran.
 *
 * The head keeps a preload of it, first of the page's files: found only at the end of the body, it
 * was asked for after the carried answers had been made (api/src/http/web-page.ts), behind every
 * script on a phone's six connections, and the scripts then waited for it.
 */
export function stylesheetLast(): Plugin {
  return {
    name: 'scoutbase-stylesheet-last',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { filename }) {
        if (!filename.endsWith('index.html')) return html;
        const links = html.match(/[ \t]*<link rel="stylesheet"[^>]*>\n?/g) ?? [];
        if (links.length === 0) return html;
        const rest = links.reduce((page, link) => page.replace(link, ''), html);
        const preloads = links.map(
          (link) => `    ${link.trim().replace('rel="stylesheet"', 'rel="preload" as="style"')}\n`,
        );
        const firstFile = rest.search(/[ \t]*<(script|link)\b/);
        const withPreloads = `${rest.slice(0, firstFile)}${preloads.join('')}${rest.slice(firstFile)}`;
        return withPreloads.replace('</body>', `${links.map((link) => `  ${link.trim()}\n`).join('')}  </body>`);
      },
    },
  };
}
