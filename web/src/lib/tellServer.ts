/**
 * What the browser tells the server of itself for the pages it renders there (web/src/server/render.tsx):
 * a cookie sent with every page it asks for from then on.
 */
export function tellServer(name: string, value: string) {
  // biome-ignore lint/suspicious/noDocumentCookie: one fixed value, set before the next page is asked for; older Safari and Firefox have no Cookie Store API
  document.cookie = `${name}=${encodeURIComponent(value)}; path=/; max-age=31536000; samesite=lax`;
}

/** What the browser told the server before this page's scripts ran, if it did. */
export function toldServer(name: string): string | undefined {
  const value = new RegExp(`(?:^|; )${name}=([^;]*)`).exec(document.cookie)?.[1];
  return value === undefined ? undefined : decodeURIComponent(value);
}
