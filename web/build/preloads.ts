import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Plugin, runnerImport } from 'vite';
import type { PageQuery } from '../../api/src/http/web-page.ts';
import { SCREEN_ROUTES, type ScreenName, SIGNED_IN_MODULES, SIGNED_OUT_MODULES } from '../src/routing/screenModules.ts';

type ScreenQueries = typeof import('../src/routes/screenQueries.ts');

/** What the API adds to a page's HTML (api/src/http/web-page.ts), written by the build as preloads.json. */
export interface Preloads {
  signedOut: string[];
  signedIn: string[];
  /** `queries`: what the screen and the shell ask for first at `path` (with no query string). */
  screens: { path: string; files: string[]; queries: PageQuery[] }[];
}

/**
 * The queries a screen's first load sends at its bare address, with the variables the web app's own
 * rules (routes/screenQueries.ts) give them, so the server can answer them in the page.
 */
function pageQueries({ screenQuery, SHELL_QUERIES }: ScreenQueries, name: ScreenName, path: string): PageQuery[] {
  const params = Object.fromEntries(
    path.split('/').flatMap((part) => (part.startsWith(':') ? [[part.slice(1), part]] : [])),
  );
  const screen = screenQuery(name, params, new URL(path, 'http://page'));
  return [screen.query, ...Object.values(SHELL_QUERIES)].map((query, i) => {
    const { id } = query.params;
    if (!id) throw new Error(`preloads: ${query.params.name} is not persisted`);
    return i === 0 ? { id, variables: screen.variables, firstImages: screen.firstImages } : { id, variables: {} };
  });
}

type Chunk = { type: 'chunk'; fileName: string; imports: string[]; facadeModuleId: string | null; moduleIds: string[] };

/**
 * The app's code arrives in steps: the entry asks who is signed in, then loads the signed-in app,
 * which loads the shell and the screen. On a phone each step is a round trip. The build lists each
 * step's scripts (with everything they import statically) so the server can name them in the page
 * for a visitor with a session, and the browser fetches them all at once.
 */
export function preloads(): Plugin {
  let root = '';
  return {
    name: 'scoutbase-preloads',
    apply: 'build',
    configResolved(config) {
      root = config.root;
    },
    async generateBundle(_options, bundle) {
      // Through Vite's own module runner: the web app's modules import Relay's files without extensions.
      const { module: queries } = await runnerImport<ScreenQueries>(
        fileURLToPath(new URL('../src/routes/screenQueries.ts', import.meta.url)),
        { configFile: false, logLevel: 'silent' },
      );
      const chunks = Object.values(bundle).filter((item): item is Chunk & typeof item => item.type === 'chunk');
      const byName = new Map(chunks.map((chunk) => [chunk.fileName, chunk]));
      const chunkOf = (module: string) => {
        const id = path.join(root, module);
        const chunk = chunks.find((c) => c.facadeModuleId === id) ?? chunks.find((c) => c.moduleIds.includes(id));
        if (!chunk) throw new Error(`preloads: no chunk holds ${module}`);
        return chunk;
      };
      const closure = (modules: readonly string[]) => {
        const files = new Set<string>();
        const visit = (chunk: Chunk | undefined) => {
          if (!chunk || files.has(chunk.fileName)) return;
          files.add(chunk.fileName);
          for (const imported of chunk.imports) visit(byName.get(imported));
        };
        for (const module of modules) visit(chunkOf(module));
        return [...files].map((file) => `/${file}`);
      };
      const list: Preloads = {
        signedOut: closure(SIGNED_OUT_MODULES),
        signedIn: closure(SIGNED_IN_MODULES),
        screens: (Object.entries(SCREEN_ROUTES) as [ScreenName, (typeof SCREEN_ROUTES)[ScreenName]][]).map(
          ([name, { path, module }]) => ({ path, files: closure([module]), queries: pageQueries(queries, name, path) }),
        ),
      };
      this.emitFile({ type: 'asset', fileName: 'preloads.json', source: JSON.stringify(list) });
    },
  };
}
