import { ValidationError } from './errors.ts';

// The one home of ids: every row id is a uuid, and GraphQL names a row by a Relay global id,
// base64 of `Type:rawId`. GraphQL arguments, node(id), REST adapters and links all encode and
// decode here, so a malformed id is refused the same way everywhere: as the caller's mistake
// (BAD_USER_INPUT), never as an unexpected failure deeper down (PostgreSQL refusing 'not-a-uuid').

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TYPENAME = /^[A-Z_a-z]\w*$/;

/** Node types whose raw id is several uuids joined by ':' (a composite primary key). */
const COMPOSITE_IDS: Record<string, number> = { ProjectMember: 2 };
/** Node types that are no row, whose raw id is one of a few names: their domain names them. */
const NAMED_IDS = new Map<string, readonly string[]>();

export function registerNamedIds(typename: string, names: readonly string[]) {
  NAMED_IDS.set(typename, names);
}

/** A malformed or wrongly typed id: the caller's input is at fault (GraphQL: BAD_USER_INPUT). */
export class InvalidIdError extends ValidationError {}

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/** Whether `id` has the shape of a raw id of `typename` (uuid, the parts of a composite key, a name). */
export function isRawId(typename: string, id: string): boolean {
  const names = NAMED_IDS.get(typename);
  if (names) return names.includes(id);
  const parts = COMPOSITE_IDS[typename] ?? 1;
  const pieces = id.split(':');
  return pieces.length === parts && pieces.every(isUuid);
}

export function encodeGlobalId(typename: string, id: string): string {
  return Buffer.from(`${typename}:${id}`, 'utf8').toString('base64');
}

/**
 * The type and raw id a global id names. The raw id must have its type's shape; a type the schema
 * does not know is still decoded (node(id) answers null for it), as long as its id is a uuid.
 */
export function decodeGlobalId(value: unknown, field?: string): { typename: string; id: string } {
  const invalid = () =>
    new InvalidIdError(
      field ? `${field} is not a valid id.` : `${JSON.stringify(String(value).slice(0, 80))} is not a valid id.`,
      field,
    );
  if (typeof value !== 'string' || value.length === 0 || value.length > 200) throw invalid();
  // Strict base64: Buffer.from would silently skip stray characters and decode garbage.
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(value) && !/^[A-Za-z0-9_-]+$/.test(value)) throw invalid();
  const decoded = Buffer.from(value, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  const typename = decoded.slice(0, colon);
  const id = decoded.slice(colon + 1);
  if (colon <= 0 || !TYPENAME.test(typename) || !isRawId(typename, id)) throw invalid();
  return { typename, id };
}

/**
 * The raw id behind an argument that takes a global id of `typename` or, as REST and older
 * clients send, the raw uuid itself. Anything else, or another type's id, is refused.
 */
export function rawIdOf(value: unknown, typename: string, field: string): string {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text === 'string' && isRawId(typename, text)) return text;
  const refused = () => new InvalidIdError(`${field} is not a ${typename} id.`, field);
  let decoded: { typename: string; id: string };
  try {
    decoded = decodeGlobalId(text, field);
  } catch {
    throw refused();
  }
  if (decoded.typename !== typename) throw refused();
  return decoded.id;
}
