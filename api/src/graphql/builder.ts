import SchemaBuilder, { brandWithType, PothosValidationError } from '@pothos/core';
import ErrorsPlugin from '@pothos/plugin-errors';
import PrismaPlugin, { queryFromInfo } from '@pothos/plugin-prisma';
import RelayPlugin, { resolveNodes as loadNodes } from '@pothos/plugin-relay';
import { type GraphQLResolveInfo, isObjectType } from 'graphql';
import { DateTimeResolver, JSONResolver } from 'graphql-scalars';
import { decodeGlobalId, encodeGlobalId, isUuid } from '../shared/ids.ts';
import type PrismaTypes from '../generated/pothos-types.ts';
import { getDatamodel } from '../generated/pothos-types.ts';
import type { ViewerContext } from '../context.ts';
import type { ObjectStore } from '../infra/objects/store.ts';
import { DomainError, UnauthorizedError, ValidationError } from '../shared/errors.ts';

/** Resolvers only ever run for a signed-in viewer: the HTTP layer refuses the rest with a 401. */
export interface GraphQLContext extends ViewerContext {
  /** Counts one AI request against the budget REST /api/ai/* spends too (TooManyRequestsError once spent). */
  spendAiBudget(): Promise<void>;
  /** The object store (analyzeFile reads the photo from it). */
  store: ObjectStore;
  /** The request (or WebSocket operation) this runs for: in the logs and in a masked error's answer. */
  requestId?: string;
}

/** The builder, for its own node loading (its options cannot name it while it is being made). */
const nodeBuilder = {} as { current: Parameters<typeof loadNodes>[0] };

export const builder = new SchemaBuilder<{
  Context: GraphQLContext;
  PrismaTypes: PrismaTypes;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
  };
  DefaultFieldNullability: false;
}>({
  plugins: [ErrorsPlugin, PrismaPlugin, RelayPlugin],
  defaultFieldNullability: false,
  prisma: {
    client: (ctx) => ctx.db,
    dmmf: getDatamodel(),
    exposeDescriptions: true,
    filterConnectionTotalCount: true,
    // A resolver that ignores the selection it was handed would silently add queries.
    onUnusedQuery: process.env.NODE_ENV === 'production' ? null : 'error',
    // Every connection's cursor is a row's uuid (or the uuids of a composite key); any other value
    // is the client's input error, refused before PostgreSQL would (patches/@pothos__plugin-prisma).
    ...{
      checkCursor: (value: unknown) => {
        const parts = value && typeof value === 'object' ? Object.values(value) : [value];
        if (!parts.every(isUuid)) throw new PothosValidationError('Invalid cursor: not a cursor of this list.');
      },
    },
  },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    nodesOnConnection: false,
    // Every global id argument (node, nodes, t.arg.globalID) is decoded by the one id module: a
    // malformed one is the caller's input error, not a failure of the query it reaches.
    encodeGlobalID: (typename, id) => encodeGlobalId(typename, String(id)),
    decodeGlobalID: (globalID) => decodeGlobalId(globalID),
    // A node the viewer may not see is loaded with a where that finds nothing; Prisma reports that
    // as an error. To the viewer it must look exactly like an id that does not exist: null. So
    // must an id of a type that is no node here.
    nodeQueryOptions: {
      resolve: (_root, { id }, ctx, info, resolveNode) => {
        if (!isNodeType(info, id)) return null;
        const load = ownNodeLoaders.get(id.typename);
        if (load && !asksForRelations(ctx, info, id.typename)) return loadOwn(load, id, ctx, info);
        return nullWhenHidden(() => resolveNode(id));
      },
    },
    nodesQueryOptions: {
      resolve: async (_root, { ids: all }, ctx, info, resolveNodes) => {
        const ids = all.filter((id) => isNodeType(info, id));
        if (ids.length < all.length) {
          // Unknown types answer null in their place; the others load as usual.
          const loaded = new Map(
            await Promise.all(
              ids.map(async (id) => {
                const node = await nullWhenHidden(
                  async () => (await loadNodes(nodeBuilder.current, ctx, info, [id]))[0],
                );
                return [id, node] as const;
              }),
            ),
          );
          return all.map((id) => loaded.get(id) ?? null);
        }
        try {
          return await resolveNodes(ids);
        } catch {
          // One of them is hidden: load them one by one, so the others still come back. Not through
          // `resolveNodes`: it loads every id of the field's arguments whatever it is handed, so each
          // retry failed again and the viewer's own nodes came back null beside a hidden one.
          return ids.map((id) =>
            nullWhenHidden(async () => (await loadNodes(nodeBuilder.current, ctx, info, [id]))[0]),
          );
        }
      },
    },
  },
  errors: {
    // A mutation that declares `errors: {}` returns these as typed results instead of throwing.
    defaultTypes: [ValidationError, DomainError],
  },
});

nodeBuilder.current = builder as unknown as Parameters<typeof loadNodes>[0];

function isNodeType(info: GraphQLResolveInfo, id: { typename: string }) {
  const type = info.schema.getType(id.typename);
  return isObjectType(type) && type.getInterfaces().some((i) => i.name === 'Node');
}

/** Reads a node the viewer may read by its raw id (null when hidden or gone), as Prisma would return it. */
type OwnNodeLoader = (ctx: GraphQLContext, id: string, info: GraphQLResolveInfo) => Promise<object | null>;

const ownNodeLoaders = new Map<string, OwnNodeLoader>();

/**
 * `node(id:)` of this type reads it with `load`, a hand-written statement, where the selection asks
 * for none of its relations (those Prisma would join in): the gallery screen opens one on every
 * visit, and one statement with the card facts costs less than Prisma's read and then the facts'.
 */
export function loadNodeWith(typename: string, load: OwnNodeLoader) {
  ownNodeLoaders.set(typename, load);
}

function asksForRelations(ctx: GraphQLContext, info: GraphQLResolveInfo, typeName: string) {
  const query = queryFromInfo({ context: ctx, info, typeName });
  return query instanceof Promise || Object.keys(query).length > 0;
}

async function loadOwn(
  load: OwnNodeLoader,
  id: { typename: string; id: string },
  ctx: GraphQLContext,
  info: GraphQLResolveInfo,
) {
  const row = await load(ctx, id.id, info);
  // Branded as Prisma's node loading does, so the Node interface knows its type.
  if (row) brandWithType(row, id.typename as Parameters<typeof brandWithType>[1]);
  return row;
}

async function nullWhenHidden(load: () => unknown) {
  try {
    return await load();
  } catch (error) {
    if ((error as { code?: unknown }).code === 'P2025') return null;
    throw error;
  }
}

builder.addScalarType('DateTime', DateTimeResolver);
builder.addScalarType('JSON', JSONResolver);

builder.queryType({ description: 'Everything a signed-in user can read.' });
builder.mutationType({ description: 'Everything a signed-in user can change.' });

// ───────────── errors: domain failures come back as typed results ─────────────

export const ErrorInterface = builder.interfaceRef<DomainError>('Error').implement({
  description: 'A failure the user can act on; message is meant to be shown as is.',
  fields: (t) => ({
    message: t.exposeString('message'),
    code: t.exposeString('code'),
  }),
});

builder.objectType(DomainError, {
  name: 'BaseError',
  description: 'Any other refusal (not found, forbidden, conflict, too many requests).',
  interfaces: [ErrorInterface],
});

builder.objectType(ValidationError, {
  name: 'ValidationError',
  description: 'Input that breaks a rule; field names the input at fault when there is one.',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    field: t.exposeString('field', { nullable: true }),
  }),
});

export { DomainError, UnauthorizedError };
