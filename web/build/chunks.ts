import type { Plugin, Rolldown } from 'vite';

/** The signed-in app's root module (its routes), which the entry loads only with a session. */
const SIGNED_IN_APP = /[\\/]src[\\/]routes[\\/]signedIn\.tsx$/;

const packages = (names: string[]) =>
  new RegExp(`node_modules[\\\\/](${names.map((name) => name.replace('/', '[\\\\/]')).join('|')})[\\\\/]`);

/**
 * How the app's code is cut into files. Left to itself the bundler makes a file for each set of
 * screens and dialogs that share a module: a signed-in screen came in 28 to 44 files, most under
 * 2 KB. A phone on mobile data opens six connections to a server without HTTP/2 and pays a round
 * trip per file, so those files cost more than their bytes (Lighthouse's mobile simulation spent
 * 1.6 s loading the first thumbnail, queued behind them). So React, the router, Relay and Headless
 * UI come in a file each, and the signed-in app's shared modules in one more. What a page reaches
 * without a session (the landing and sign-in pages, a review link, their lazy parts) stays out of
 * that last file, so those pages load neither Relay nor the signed-in app. Dialogs and screens,
 * loaded when first needed, stay files of their own.
 */
export function appChunks(): { plugin: Plugin; groups: Rolldown.CodeSplittingGroup[] } {
  /** Modules a page without an account may run: filled once the module graph is known. */
  const publicModules = new Set<string>();
  const loadedLater = new Set<string>();
  const plugin: Plugin = {
    name: 'scoutbase-chunks',
    apply: 'build',
    buildEnd() {
      // Everything an entry reaches, statically or when first needed, without passing through the
      // signed-in app: a review link's map, say, loads without a session.
      const visit = (id: string) => {
        if (publicModules.has(id) || SIGNED_IN_APP.test(id)) return;
        publicModules.add(id);
        const module = this.getModuleInfo(id);
        for (const imported of [...(module?.importedIds ?? []), ...(module?.dynamicallyImportedIds ?? [])])
          visit(imported);
      };
      for (const id of this.getModuleIds()) {
        const module = this.getModuleInfo(id);
        if (module?.isEntry) visit(id);
        if (module && module.dynamicImporters.length > 0) loadedLater.add(id);
      }
    },
  };
  // The API's modules the app shares (contracts, limits, the date rule) count as the app's own:
  // each became a file of its own, a round trip more for every screen.
  const signedInShared = (id: string) =>
    /[\\/](web|api)[\\/]src[\\/]/.test(id) && !publicModules.has(id) && !loadedLater.has(id);
  return {
    plugin,
    groups: [
      {
        name: 'react',
        test: packages(['react', 'react-dom', 'scheduler']),
        priority: 30,
      },
      { name: 'router', test: packages(['react-router', 'react-router-dom', 'cookie']), priority: 30 },
      {
        name: 'relay',
        test: packages(['relay-runtime', 'react-relay', 'graphql-ws', '@babel/runtime', 'invariant', 'fbjs']),
        priority: 20,
      },
      {
        name: 'headless',
        test: packages([
          '@headlessui',
          '@floating-ui',
          'react-aria',
          '@react-aria',
          'react-stately',
          'use-sync-external-store',
        ]),
        priority: 20,
      },
      // Its own modules' imports are in the files above or are public: it takes none of them along.
      {
        name: 'signed-in',
        test: signedInShared,
        minShareCount: 2,
        includeDependenciesRecursively: false,
        priority: 10,
      },
    ],
  };
}
