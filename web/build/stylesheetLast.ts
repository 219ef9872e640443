import type { Plugin } from 'vite';

/**
 * Moves the app's stylesheet from the page's head to the end of its body. In the head it holds the
 * first paint until it has arrived, and on a phone it arrives with the scripts, so the loading
 * screen (styled inline, index.html) waited for them too. At the end of the body it holds nothing
 * before it, and the scripts still run only once it has loaded: a module script waits for every
 * stylesheet the parser met before it ran.
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
        return rest.replace('</body>', `${links.map((link) => `  ${link.trim()}\n`).join('')}  </body>`);
      },
    },
  };
}
