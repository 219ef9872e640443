// Relay global ids are base64("Type:rawId") (Pothos' default). The REST calls of SPEC.md
// section 7 take raw ids, so screens that read with GraphQL and upload over REST convert here.

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
