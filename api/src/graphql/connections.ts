import { PothosValidationError } from '@pothos/core';

// Relay connections over a list read by position (search results, ranked by a statement that
// takes an offset and a limit). The Prisma connections follow the same rules in
// patches/@pothos__plugin-prisma: `first` and `last` together take `first` edges and then the
// last `last` of those; `after` and `before` together bound the edges on both sides; and
// hasNextPage/hasPreviousPage are exact whenever `first`/`last` is given (Relay cursor spec).

const PREFIX = 'OffsetConnection:';

export interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
}

export function offsetCursor(offset: number): string {
  return Buffer.from(`${PREFIX}${offset}`).toString('base64');
}

function offsetOf(cursor: string): number {
  const text = /^[A-Za-z0-9+/]+={0,2}$/.test(cursor) ? Buffer.from(cursor, 'base64').toString('utf8') : '';
  const digits = text.startsWith(PREFIX) ? text.slice(PREFIX.length) : '';
  if (!/^\d{1,9}$/.test(digits)) throw new PothosValidationError('Invalid cursor: not a cursor of this list.');
  return Number(digits);
}

/**
 * One page of a list read by position. Without `before`, `last` alone reads at most `scanLimit`
 * items to find the end of the list.
 */
export async function resolveOffsetConnection<T>(
  args: ConnectionArgs,
  read: (page: { offset: number; limit: number }) => Promise<T[]>,
  { defaultSize = 20, maxSize = 100, scanLimit = 1000 } = {},
) {
  const { first, last } = args;
  if ((first != null && first < 0) || (last != null && last < 0)) {
    throw new PothosValidationError('first and last must not be negative.');
  }
  const start = args.after != null ? offsetOf(args.after) + 1 : 0;
  let end = args.before != null ? offsetOf(args.before) : Number.POSITIVE_INFINITY;
  // A `before` at or ahead of `after` is not among the edges left after `after`: it cuts nothing.
  if (end < start) end = Number.POSITIVE_INFINITY;

  const backward = first == null && last != null;
  let rows: T[];
  let offset: number;
  let nodes: T[];
  let hasNextPage: boolean;
  let hasPreviousPage: boolean;
  if (backward) {
    const count = Math.min(last, maxSize);
    if (Number.isFinite(end)) {
      offset = Math.max(start, end - count - 1);
      rows = await read({ offset, limit: end - offset });
    } else {
      const all = await read({ offset: start, limit: scanLimit });
      offset = Math.max(start, start + all.length - count - 1);
      rows = all.slice(offset - start);
    }
    const skip = Math.max(0, rows.length - count);
    nodes = rows.slice(skip);
    offset += skip;
    hasPreviousPage = rows.length > count;
    hasNextPage = args.before != null;
  } else {
    const size = Math.min(first == null ? defaultSize : Math.max(first, last ?? 0), maxSize);
    offset = start;
    rows = await read({ offset, limit: Math.min(size + 1, end - start) });
    const count = first != null ? Math.min(first, size) : size;
    nodes = rows.slice(0, count);
    hasNextPage = rows.length > count || (first == null && args.before != null);
    if (last != null) {
      const lastCount = Math.min(last, size);
      hasPreviousPage = rows.length > lastCount;
      const skip = Math.max(0, nodes.length - lastCount);
      nodes = nodes.slice(skip);
      offset += skip;
    } else {
      hasPreviousPage = args.after != null;
    }
  }
  const edges = nodes.map((node, index) => ({ cursor: offsetCursor(offset + index), node }));
  return {
    edges,
    pageInfo: {
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges.at(-1)?.cursor ?? null,
      hasPreviousPage,
      hasNextPage,
    },
  };
}
