import path from 'node:path';
import type { Plugin } from 'vite';
import { SCREEN_ROUTES, SIGNED_IN_MODULES, SIGNED_OUT_MODULES } from '../src/routes/screenModules.ts';

/** What the API adds to a page's HTML (api/src/http/web-page.ts), written by the build as preloads.json. */
export interface Preloads {
  signedOut: string[];
  signedIn: string[];
  screens: { path: string; files: string[] }[];
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
    generateBundle(_options, bundle) {
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
        screens: Object.values(SCREEN_ROUTES).map(({ path, module }) => ({ path, files: closure([module]) })),
      };
      this.emitFile({ type: 'asset', fileName: 'preloads.json', source: JSON.stringify(list) });
    },
  };
}
