import type { InputFieldMap, InputShapeFromFields, MaybePromise, ObjectRef } from '@pothos/core';
import { encodeGlobalID } from '@pothos/plugin-relay';
import type PrismaTypes from '../generated/pothos-types.ts';
import { builder, type GraphQLContext } from './builder.ts';

// The shapes every domain's types share.

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;
type QueryFieldBuilder = PothosSchemaTypes.QueryFieldBuilder<Types, Types['Root']>;
type MutationFieldBuilder = PothosSchemaTypes.MutationFieldBuilder<Types, Types['Root']>;
type Model = keyof PrismaTypes & string;

/** An enum of the Prisma schema, under its Prisma name (Prisma's enum objects carry none). */
export function prismaEnum<const Values extends Record<string, string>>(
  values: Values,
  name: string,
  description: string,
) {
  // Pothos types the options by whether `values` is an enum object: unknown for a generic one.
  return builder.enumType(values, { name, description } as never);
}

/** A field of User that only the signed-in user sees on themselves: null on anyone else. */
export function viewerOnlyUserField<Shape>(
  name: string,
  type: ObjectRef<Types, Shape>,
  description: string,
  read: (ctx: GraphQLContext) => Promise<Shape>,
) {
  builder.prismaObjectField('User', name, (t) =>
    t.field({
      type,
      nullable: true,
      description,
      select: { id: true },
      // Pothos cannot check the answer for a shape not known yet; the signature ties `read` to `type`.
      resolve: (user, _args, ctx) => (user.id === ctx.viewer.id ? read(ctx) : null) as never,
    }),
  );
}

interface MutationOptions<Args extends InputFieldMap, Result> {
  description: string;
  args: Args;
  /** Runs the domain rule; its failures come back as the field's typed errors. */
  change: (args: InputShapeFromFields<Args>, ctx: GraphQLContext) => Promise<Result>;
}

/** The Prisma delegate of a model, by its Pothos name ('GalleryShare' → ctx.db.galleryShare). */
function rowsOf(ctx: GraphQLContext, model: Model) {
  const delegate = `${model[0]?.toLowerCase()}${model.slice(1)}` as keyof GraphQLContext['db'];
  return ctx.db[delegate] as unknown as {
    findUniqueOrThrow(args: object): Promise<never>;
    findMany(args: object): Promise<never[]>;
    count(args: object): Promise<number>;
  };
}

interface ListOptions<M extends Model, Args extends InputFieldMap> {
  description: string;
  args?: Args;
  /** The rows the viewer may list; the pages and totalCount both read them. */
  where: (args: InputShapeFromFields<Args>, ctx: GraphQLContext) => MaybePromise<PrismaTypes[M]['Where']>;
  orderBy: PrismaTypes[M]['OrderBy'][] | ((args: InputShapeFromFields<Args>) => PrismaTypes[M]['OrderBy'][]);
  /** Adds totalCount to the connection. */
  counted?: boolean;
}

/** A top-level list of one model's rows the viewer may see, in a fixed order, paged by row id. */
export function listConnection<M extends Model, Args extends InputFieldMap = Record<string, never>>(
  t: QueryFieldBuilder,
  type: M,
  { description, args, where, orderBy, counted }: ListOptions<M, Args>,
) {
  type Values = InputShapeFromFields<Args>;
  const options = {
    type,
    cursor: 'id',
    description,
    args,
    ...(counted && {
      totalCount: async (_connection: unknown, values: Values, ctx: GraphQLContext) =>
        rowsOf(ctx, type).count({ where: await where(values, ctx) }),
    }),
    resolve: async (query: object, _root: unknown, values: Values, ctx: GraphQLContext) =>
      rowsOf(ctx, type).findMany({
        ...query,
        where: await where(values, ctx),
        orderBy: typeof orderBy === 'function' ? orderBy(values) : orderBy,
      }),
  };
  // Pothos cannot check options for a model and arguments not known yet; ListOptions checks each use.
  return t.prismaConnection(options as never);
}

/**
 * A mutation that changes one row through its domain rule and answers that row as selected: the
 * rules answer the plain row, what the client asked for (relations, counts) is another read.
 */
export function rowMutation<Args extends InputFieldMap>(
  t: MutationFieldBuilder,
  type: Model,
  { description, args, change }: MutationOptions<Args, { id: string }>,
) {
  return t.prismaField({
    type,
    description,
    errors: {},
    args,
    resolve: async (query, _root, values, ctx) => {
      const { id } = await change(values as InputShapeFromFields<Args>, ctx);
      return rowsOf(ctx, type).findUniqueOrThrow({ ...query, where: { id } });
    },
  });
}

/** A mutation that deletes, ends or leaves one row through its domain rule and answers its global id. */
export function removalMutation<Args extends InputFieldMap>(
  t: MutationFieldBuilder,
  type: Model,
  { description, args, change }: MutationOptions<Args, { id: string }>,
) {
  return t.field({
    type: 'ID',
    description,
    errors: {},
    args,
    resolve: async (_root, values, ctx) => encodeGlobalID(type, (await change(values, ctx)).id),
  });
}
