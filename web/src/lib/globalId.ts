// Relay global ids are base64("Type:rawId") (Pothos' default). The REST calls
// section 7 take raw ids, so screens that read with GraphQL and upload over REST convert here.
// Addresses in the app carry the global id, the one GraphQL gives and takes; this file is the web
// side of that rule (api/src/shared/links.ts is the API's, for the links it writes).

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function rawIdOf(globalId: string): string {
  try {
    const decoded = atob(globalId);
    const colon = decoded.indexOf(':');
    return colon > 0 ? decoded.slice(colon + 1) : globalId;
  } catch {
    return globalId;
  }
}

export function globalIdOf(type: string, rawId: string): string {
  return btoa(`${type}:${rawId}`);
}

/** Addresses of the app's screens, from the global ids GraphQL gives. */
export const appPath = {
  gallery: (id: string) => `/galleries/${encodeURIComponent(id)}`,
  folder: (id: string) => `/files?folder=${encodeURIComponent(id)}`,
};

/**
 * Links written before ids were global carry the raw uuid: the global id the address should
 * read instead, or null when it needs no change.
 */
export function replacementForRawId(type: string, id: string): string | null {
  return UUID.test(id) ? globalIdOf(type, id) : null;
}
