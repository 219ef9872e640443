import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BrowserFacts } from '../users/contract.ts';

/**
 * The web app's first screen rendered on the server from the page's carried answers (keyed as the
 * page carries them) as that browser will show it (its time zone, its notification permission), as
 * the inside of #root with the person's Dark Mode; null when it cannot be rendered there
 * (web/src/server/render.tsx).
 */
export type PageRender = (
  address: string,
  answers: Record<string, unknown>,
  browser: BrowserFacts,
) => Promise<{ html: string; dark: boolean } | null>;

/** Where a web build in `distDir` puts its render on the server (web/build/serverBundle.ts): beside it, never served. */
export const pageRenderDir = (distDir: string) => `${distDir.replace(/[\\/]+$/, '')}-server`;

/** The web build's render on the server, or undefined for a build without one (pages render in the browser). */
export async function loadPageRender(distDir: string): Promise<PageRender | undefined> {
  const file = path.join(pageRenderDir(distDir), 'render.js');
  if (!existsSync(file)) return undefined;
  const module = (await import(pathToFileURL(file).href)) as { renderPage: PageRender; prepare(): Promise<void> };
  await module.prepare();
  return module.renderPage;
}
