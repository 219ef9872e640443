import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'vite';
import { pageRenderDir } from '../../api/src/http/page-render.ts';

/**
 * Every web build also builds the app's render on the server (src/server/render.tsx) into
 * pageRenderDir(outDir), so the two always come from the same code and the same persisted queries.
 * It sits beside the web build, not in it: nothing of it is served.
 */
export function serverBundle(): Plugin {
  let outDir = '';
  let root = '';
  return {
    name: 'scoutbase-server-bundle',
    apply: (_, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(config) {
      outDir = config.build.outDir;
      root = config.root;
    },
    async closeBundle() {
      await build({
        root,
        configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)),
        logLevel: 'warn',
        // Relay reads process.env.NODE_ENV in its loops (each field it stores checks it), and
        // Node answers each read from the environment. Bundled with the render, with the value
        // written in, those checks go at build time: about 9 % of a render's CPU (bench/README.md).
        define: { 'process.env.NODE_ENV': JSON.stringify('production') },
        ssr: { noExternal: ['relay-runtime', 'react-relay'] },
        build: {
          ssr: fileURLToPath(new URL('../src/server/render.tsx', import.meta.url)),
          outDir: pageRenderDir(outDir),
          emptyOutDir: true,
          rolldownOptions: { output: { entryFileNames: 'render.js' } },
        },
      });
    },
  };
}
