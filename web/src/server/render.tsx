import { AsyncLocalStorage } from 'node:async_hooks';
import { text } from 'node:stream/consumers';
import { StrictMode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { createMemoryRouter, type RouteObject } from 'react-router-dom';
import { type BrowserFacts, CARRIED_READ_AT } from '../../../api/src/users/contract.ts';
import { App, loadSignedInApp } from '../App.tsx';
import { knownPushPermission } from '../lib/push.ts';
import { type ServerPage, setServerPageSource } from '../lib/serverPage.ts';

// The web app's first screen rendered on the server, for a signed-in person's page that carries
// the screen's answers (api/src/http/web-page.ts). The browser paints the screen as the HTML
// arrives, before any script has run, then hydrates it with the same answers (main.tsx). Built by
// build/serverBundle.ts beside the web build; the API loads it when it is there.

const pages = new AsyncLocalStorage<ServerPage>();
setServerPageSource(() => pages.getStore());

/** The screen at `address` as HTML (the inside of #root), or null when it cannot be made there. */
export interface RenderedPage {
  html: string;
  /** The person's Dark Mode setting, from the shell's carried answer. */
  dark: boolean;
}

/** Longer than this and the page is sent to be rendered in the browser, as without a server render. */
const MOST_MS = 2_000;

/**
 * Renders `address` (a path with its search) from the page's carried answers alone, as the
 * `browser` will show it (dates in its time zone, its notification permission) and its relative
 * times as of when the answers were read: null when the
 * address is not a screen rendered as it stands (a redirect, an error), or when the render asked
 * for anything the page does not carry, so that the browser renders it as it always could.
 */
export async function renderPage(
  address: string,
  answers: Record<string, unknown>,
  { timeZone, pushPermission }: BrowserFacts,
): Promise<RenderedPage | null> {
  const readAt = answers[CARRIED_READ_AT];
  if (typeof readAt !== 'string' || !knownZone(timeZone)) return null;
  const page: ServerPage = {
    answers: new Map(Object.entries(answers)),
    missing: [],
    timeZone,
    pushPermission: knownPushPermission(pushPermission),
    now: new Date(readAt),
  };
  return pages.run(page, async () => {
    const { routes, settled } = await loadSignedInApp();
    const router = createMemoryRouter(routes, { initialEntries: [address] });
    page.router = router;
    try {
      if (!(await settled(router, MOST_MS))) return null;
      const { location, errors } = router.state;
      if (errors || `${location.pathname}${location.search}` !== address || page.missing.length > 0) return null;
      const abort = new AbortController();
      const timer = setTimeout(() => abort.abort(), MOST_MS);
      const { prelude } = await prerenderToNodeStream(
        <StrictMode>
          <App />
        </StrictMode>,
        // A finished part larger than this React would send apart, shown by an inline script: the
        // page is sent whole (nothing of it waits for a script, and the policy runs none inline).
        { signal: abort.signal, progressiveChunkSize: Number.POSITIVE_INFINITY },
      ).finally(() => clearTimeout(timer));
      const html = await text(prelude);
      if (page.missing.length > 0) return null;
      return { html, dark: darkModeOf(answers) };
    } catch {
      return null;
    } finally {
      router.dispose();
    }
  });
}

/**
 * Loads the signed-in app with its shell and every screen, so the first page rendered after a
 * start does not wait for them (about 0.7 s here).
 */
export async function prepare() {
  const { routes } = await loadSignedInApp();
  const lazyRoutes = (list: RouteObject[]): RouteObject[] =>
    list.flatMap((route) => [route, ...lazyRoutes(route.children ?? [])]);
  await Promise.all(lazyRoutes(routes).map((route) => (typeof route.lazy === 'function' ? route.lazy() : undefined)));
}

// Checking a zone builds a formatter (0.1 ms, 1 % of a rendered page), so the zones found valid are
// kept. There are a few hundred, but each is valid in any mix of case: hence the bound.
const zonesSeen = new Set<string>();
const MOST_ZONES_KEPT = 1_000;

function knownZone(timeZone: string) {
  if (zonesSeen.has(timeZone)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    return false;
  }
  if (zonesSeen.size < MOST_ZONES_KEPT) zonesSeen.add(timeZone);
  return true;
}

function darkModeOf(answers: Record<string, unknown>) {
  for (const answer of Object.values(answers)) {
    const viewer = (answer as { data?: { viewer?: { settings?: { darkMode?: unknown } } } } | null)?.data?.viewer;
    if (typeof viewer?.settings?.darkMode === 'boolean') return viewer.settings.darkMode;
  }
  return false;
}
