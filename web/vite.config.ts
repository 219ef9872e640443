import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { compression } from 'vite-plugin-compression2';
import { defineConfig } from 'vitest/config';
import relay from 'vite-plugin-relay';

const api = process.env.API_URL ?? 'http://localhost:3000';

export default defineConfig({
  // Brotli and gzip copies of each text asset, served as they are by the API (no per-request work).
  plugins: [relay, react(), tailwindcss(), compression({ algorithms: ['brotliCompress', 'gzip'] })],
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
});
