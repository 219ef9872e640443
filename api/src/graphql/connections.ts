import { PothosValidationError } from '@pothos/core';
import { type GraphQLResolveInfo, getArgumentValues, isObjectType, Kind, type SelectionSetNode } from 'graphql';

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

/**
 * How many rows the Prisma connection `field` of the `type` being resolved (info) will read, when
 * its selection asks for the first page of it (`first` only, or no arguments): a statement that
 * reads the node can read that page beside it. Undefined for any other page, or none asked.
 * Pothos reads a page of `first` (at most maxSize) and one more row, to know of a next page.
 */
export function firstPageTake(
  info: GraphQLResolveInfo,
  type: string,
  field: string,
  { defaultSize = 20, maxSize = 100 } = {},
): number | undefined {
  const objectType = info.schema.getType(type);
  const definition = isObjectType(objectType) ? objectType.getFields()[field] : undefined;
  if (!definition) return undefined;
  const find = (set: SelectionSetNode | undefined): number | undefined => {
    for (const selection of set?.selections ?? []) {
      // A field or fragment asked for under a condition (@include, @skip) is left to the field.
      if (selection.directives?.length) continue;
      if (selection.kind === Kind.FIELD && selection.name.value === field) {
        let args: ConnectionArgs;
        try {
          args = getArgumentValues(definition, selection, info.variableValues) as ConnectionArgs;
        } catch {
          return undefined;
        }
        if (args.last != null || args.after != null || args.before != null) return undefined;
        const first = args.first ?? defaultSize;
        return first >= 0 ? Math.min(first, maxSize) + 1 : undefined;
      }
      const fragment =
        selection.kind === Kind.INLINE_FRAGMENT
          ? selection
          : selection.kind === Kind.FRAGMENT_SPREAD
            ? info.fragments[selection.name.value]
            : undefined;
      const on = fragment?.typeCondition?.name.value;
      if (fragment && (on === undefined || on === type)) {
        const take = find(fragment.selectionSet);
        if (take !== undefined) return take;
      }
    }
    return undefined;
  };
  for (const node of info.fieldNodes) {
    const take = find(node.selectionSet);
    if (take !== undefined) return take;
  }
  return undefined;
}
