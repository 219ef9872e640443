import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import relay from 'vite-plugin-relay';
import { appChunks } from './build/chunks.ts';
import { preloads } from './build/preloads.ts';
import { serverBundle } from './build/serverBundle.ts';
import { stylesheetLast } from './build/stylesheetLast.ts';

const api = process.env.API_URL ?? 'http://localhost:3000';

// A review link (/r/{token}) has its own small page, review.html; the API serves it for those paths
// (api/src/app.ts), and this does the same for the development server.
const reviewPage: Plugin = {
  name: 'scoutbase-review-page',
  configureServer(server) {
    server.middlewares.use((req, _res, next) => {
      if (req.url?.startsWith('/r/')) req.url = '/review.html';
      next();
    });
  },
};

const chunks = appChunks();

export default defineConfig(({ isSsrBuild }) => ({
  // Brotli and gzip copies of each text asset, served as they are by the API (no per-request work).
  plugins: isSsrBuild
    ? // The render on the server (build/serverBundle.ts) needs only the code: no styles, copies or lists.
      [relay, react()]
    : [
        relay,
        react(),
        tailwindcss(),
        compression({ algorithms: ['brotliCompress', 'gzip'] }),
        reviewPage,
        preloads(),
        chunks.plugin,
        stylesheetLast(),
        serverBundle(),
      ],
  build: {
    rolldownOptions: isSsrBuild
      ? {}
      : {
          input: {
            index: fileURLToPath(new URL('index.html', import.meta.url)),
            review: fileURLToPath(new URL('review.html', import.meta.url)),
          },
          output: { codeSplitting: { groups: chunks.groups } },
        },
  },
  server: {
    port: 5173,
    // In development the API runs on its own port; the browser still talks to one origin.
    proxy: {
      '/api': api,
      '/graphql': { target: api, ws: true },
      '/objects': api,
    },
  },
  test: {
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
  },
}));
