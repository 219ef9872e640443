import type { Environment } from 'relay-runtime';

/**
 * What one page's render on the server (src/server/render.tsx) stands on in place of the
 * browser's: the answers the page carries, that page's own Relay store and its router. The
 * modules that keep one of these for the whole tab in the browser (the carried answers, the
 * store, the session at start, the router) ask here first, so one person's render never reads
 * another's. In the browser's build `import.meta.env.SSR` is false and this is always undefined.
 */
export interface ServerPage {
  /** The page's carried answers, keyed as the page carries them (api/src/http/web-page.ts). */
  answers: Map<string, unknown>;
  environment?: Environment;
  router?: unknown;
  /** Queries the render asked for that the page does not carry: such a page is not rendered. */
  missing: string[];
  /** The browser's time zone, for dates as the browser will show them (lib/format.ts). */
  timeZone: string;
  /** The browser's notification permission as it last said (lib/push.ts), null when it has not. */
  pushPermission: NotificationPermission | 'unsupported' | null;
  /** The time the page's answers were read: times relative to now are shown as of then. */
  now: Date;
}

let current: () => ServerPage | undefined = () => undefined;

export const serverPage = (): ServerPage | undefined => (import.meta.env.SSR ? current() : undefined);

export function setServerPageSource(source: () => ServerPage | undefined) {
  current = source;
}
