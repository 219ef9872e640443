import { queryFromInfo } from '@pothos/plugin-prisma';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { resolveOffsetConnection } from '../graphql/connections.ts';
import { GraphQLError } from 'graphql';
import type { File } from '../generated/prisma/client.ts';
import type { ViewerContext } from '../context.ts';
import { builder } from '../graphql/builder.ts';
import { removalMutation, rowMutation } from '../graphql/shapes.ts';
import {
  fileAccessWhere,
  folderAccessWhere,
  galleryAccessWhere,
  mayChangeFile,
  seesFolderOf,
} from '../access/rules.ts';
import { DomainError, NotFoundError } from '../shared/errors.ts';
import { createFileRecord, type NameConflict, nameConflicts } from './uploads.ts';
import { createFileVersion, restoreVersion } from './versions.ts';
import { deleteFile, listFilesQuery, recentFilesQuery, updateFile } from './files.ts';
import { deleteFiles, moveFiles } from './bulk.ts';
import {
  createFolder,
  deleteFolder,
  FOLDER_ORDER,
  folderAncestors,
  folderOfViewer,
  renameFolder,
  moveFolder,
} from './folders.ts';
import { folderPathOf, folderPaths, folderSearch, searchFileIds } from './search.ts';
import { fileOrderBy, inOrder, type FileSort } from './shared.ts';

/**
 * Queries have no typed error results: a refusal (unknown folder, too short a search) becomes a
 * GraphQL error that keeps its message and code instead of Yoga's masked "Unexpected error".
 */
async function orGraphQLError<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof DomainError) {
      throw new GraphQLError(error.message, { extensions: { code: error.code } });
    }
    throw error;
  }
}

/** The raw id behind a global id argument, checked to name the expected type (else: not found). */
function rawId(globalId: { typename: string; id: string }, typename: 'File' | 'Folder' | 'FileVersion') {
  if (globalId.typename !== typename) throw new NotFoundError(typename === 'FileVersion' ? 'Version' : typename);
  return globalId.id;
}

/** A folder argument: absent or null is the top level. */
function folderArg(globalId: { typename: string; id: string } | null | undefined) {
  return globalId ? rawId(globalId, 'Folder') : null;
}

export const FileSortEnum = builder.enumType('FileSort', {
  description: 'Orders of the file manager.',
  values: {
    RECENT: { value: 'recent', description: 'Newest upload first (the default).' },
    NAME: { value: 'name', description: 'By name, A to Z.' },
    SIZE: { value: 'size', description: 'Largest first.' },
    TYPE: { value: 'type', description: 'By type (MIME type), then name.' },
  } as const,
});

export const FolderType = builder.prismaNode('Folder', {
  description: 'A folder of the file manager. Folders belong to one person and nest; names are unique among siblings.',
  id: { field: 'id' },
  findUnique: (id, ctx) => ({ id, AND: [folderAccessWhere(ctx.viewer.id)] }),
  fields: (t) => ({
    name: t.exposeString('name'),
    parent: t.relation('parent', { nullable: true, description: 'The folder this one is in; null at the top level.' }),
    folders: t.relatedConnection('children', {
      description: 'The folders directly inside this one, by name.',
      cursor: 'id',
      query: { orderBy: [...FOLDER_ORDER] },
    }),
    files: t.relatedConnection('files', {
      description: 'The files directly inside this folder.',
      cursor: 'id',
      args: { sort: t.arg({ type: FileSortEnum, required: false }) },
      query: (args) => ({ orderBy: fileOrderBy((args.sort ?? 'recent') as FileSort) }),
    }),
    fileCount: t.relationCount('files', { description: 'How many files are directly inside.' }),
    folderCount: t.relationCount('children', { description: 'How many folders are directly inside.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

builder.prismaObjectField(FolderType, 'path', (t) =>
  t.field({
    type: [FolderType],
    description: 'The folders above this one, top level first (for breadcrumbs).',
    resolve: (folder, _args, ctx) => folderAncestors(ctx, folder.id),
  }),
);

export const FileVersionType = builder.prismaNode('FileVersion', {
  description:
    'One state of a file’s bytes. Uploading a file with the same name into the same folder, or uploadFileVersion, adds a version.',
  id: { field: 'id' },
  findUnique: (id, ctx) => ({ id, file: fileAccessWhere(ctx.viewer.id, 'read') }),
  fields: (t) => ({
    version: t.exposeInt('version', { description: 'Counts up from 1; the highest is the current one.' }),
    size: t.float({ description: 'Bytes.', select: { size: true }, resolve: (v) => Number(v.size) }),
    mimeType: t.exposeString('mimeType'),
    objectPath: t.exposeString('objectPath', { description: 'Where these bytes are served from.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});

/** Folder paths already read in this request (a search reads all of its results' at once). */
const folderPathsOfRequest = new WeakMap<object, Map<string, string[]>>();

async function knownFolderPaths(ctx: ViewerContext, folderIds: (string | null)[]) {
  const known = folderPathsOfRequest.get(ctx) ?? new Map<string, string[]>();
  folderPathsOfRequest.set(ctx, known);
  const missing = folderIds.filter((id): id is string => id !== null && !known.has(id));
  for (const [id, names] of await folderPaths(ctx, missing)) known.set(id, names);
  return known;
}

export const FileType = builder.prismaNode('File', {
  description: 'A stored file: its record (name, tags, metadata) and where its current bytes are served from.',
  id: { field: 'id' },
  findUnique: (id, ctx) => ({ id, AND: [fileAccessWhere(ctx.viewer.id, 'read')] }),
  fields: (t) => ({
    name: t.exposeString('name'),
    originalName: t.exposeString('originalName', { description: 'The name the file had on the uploader’s device.' }),
    mimeType: t.exposeString('mimeType'),
    size: t.float({
      description: 'Bytes, as received by the server.',
      select: { size: true },
      resolve: (f) => Number(f.size),
    }),
    objectUrl: t.exposeString('objectUrl'),
    objectPath: t.exposeString('objectPath', {
      description: 'Where the current bytes are served from (/objects/uploads/…).',
    }),
    isPublic: t.exposeBoolean('isPublic'),
    tags: t.exposeStringList('tags'),
    metadata: t.expose('metadata', {
      type: 'JSON',
      description: 'uploadedAt, aiAnalysis, autoTagged, and what the server read from the bytes (image, thumbnails).',
    }),
    viewerCanEdit: t.boolean({
      description: 'Whether the signed-in user may rename, tag, move or delete this file (only its owner may).',
      select: { ownerId: true },
      resolve: (f, _args, ctx) => mayChangeFile(ctx.viewer.id, f),
    }),
    folderPath: t.stringList({
      nullable: true,
      description:
        'The names of the folders from the top level down to the file (empty at the top level); null for files of other people, whose folders are theirs.',
      select: { ownerId: true, folderId: true },
      resolve: async (f, _args, ctx) => folderPathOf(ctx.viewer.id, f, await knownFolderPaths(ctx, [f.folderId])),
    }),
    folder: t.field({
      type: FolderType,
      nullable: true,
      description: 'The folder the file is in; null at the top level, and for files of other people.',
      select: (_args, _ctx, nestedSelection) => ({ ownerId: true, folder: nestedSelection(true) }),
      resolve: (f, _args, ctx) => (seesFolderOf(ctx.viewer.id, f) ? f.folder : null),
    }),
    versions: t.relation('versions', {
      description: 'Every version, newest (current) first.',
      query: { orderBy: { version: 'desc' } },
    }),
    currentVersion: t.int({
      // Versions count up from 1 and are never removed one by one, so the count is the newest number
      // (and a count does not clash with a `versions` selection in the same query).
      description: 'The number of the current version.',
      select: { _count: { select: { versions: true } } },
      resolve: (f) => Math.max(f._count.versions, 1),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime' }),
  }),
});

builder.prismaObjectField(FileType, 'galleries', (t) =>
  t.prismaField({
    type: ['Gallery'],
    description:
      'The galleries holding this file that the signed-in user may see (own and shared with them), by name; at most 100.',
    resolve: (query, file, _args, ctx) =>
      ctx.db.gallery.findMany({
        ...query,
        where: { AND: [galleryAccessWhere(ctx.viewer.id), { items: { some: { fileId: file.id } } }] },
        orderBy: [{ name: 'asc' }, { id: 'asc' }],
        take: 100,
      }),
  }),
);

// ───────────────────────────── upload conflicts ─────────────────────────────

export const UploadConflictChoiceEnum = builder.enumType('UploadConflictChoice', {
  description: 'What an upload does when its name is already taken in the folder.',
  values: {
    KEEP_BOTH: { value: 'keepBoth', description: 'Files it beside the other as "name (1).ext" (the default).' },
    REPLACE: {
      value: 'replace',
      description: 'Makes it the newest version of the other file; galleries showing that file show it.',
    },
    SKIP: { value: 'skip', description: 'Files nothing; the upload is released.' },
  },
});

/** createFile's answer when the viewer chose to skip a name that is taken: nothing was filed. */
export class UploadSkipped extends Error {
  constructor(readonly existing: File) {
    super(`"${existing.name}" already exists here; the upload was skipped.`);
  }
}

builder.objectType(UploadSkipped, {
  name: 'UploadSkipped',
  description: 'Nothing was filed: a file of that name is already there and the upload asked to skip it.',
  fields: (t) => ({
    message: t.exposeString('message'),
    existing: t.field({ type: FileType, description: 'The file that kept its place.', resolve: (r) => r.existing }),
  }),
});

const FileNameConflict = builder.objectRef<NameConflict>('FileNameConflict').implement({
  description: 'A name that is already taken in the folder an upload is going to.',
  fields: (t) => ({
    name: t.exposeString('name'),
    existing: t.field({ type: FileType, resolve: (c) => c.existing }),
    keepBothName: t.exposeString('keepBothName', { description: 'What KEEP_BOTH would call the upload now.' }),
  }),
});

builder.queryField('fileNameConflicts', (t) =>
  t.field({
    type: [FileNameConflict],
    description:
      'Which of these names are already taken in one of the signed-in user’s folders (the top level when folderId is absent): asked before uploading.',
    args: {
      folderId: t.arg.globalID({ required: false, description: 'A Folder id; absent or null for the top level.' }),
      names: t.arg.stringList({ required: true }),
    },
    resolve: (_root, args, ctx) =>
      orGraphQLError(() => nameConflicts(ctx, { folderId: folderArg(args.folderId), names: args.names })),
  }),
);

// ───────────────────────────── queries ─────────────────────────────

builder.queryFields((t) => ({
  folders: t.prismaConnection({
    type: 'Folder',
    cursor: 'id',
    description: 'The signed-in user’s folders directly inside parentId (the top level when it is absent), by name.',
    args: {
      parentId: t.arg.globalID({ required: false, description: 'A Folder id; absent or null for the top level.' }),
    },
    resolve: (query, _root, args, ctx) =>
      orGraphQLError(async () => {
        const ref = folderArg(args.parentId);
        const parentId = ref === null ? null : (await folderOfViewer(ctx, ref)).id;
        return ctx.db.folder.findMany({
          ...query,
          where: { ...folderAccessWhere(ctx.viewer.id), parentId },
          orderBy: [...FOLDER_ORDER],
        });
      }),
  }),
  files: t.prismaConnection({
    type: 'File',
    cursor: 'id',
    description: 'The signed-in user’s files directly inside folderId (the top level when it is absent).',
    args: {
      folderId: t.arg.globalID({ required: false, description: 'A Folder id; absent or null for the top level.' }),
      sort: t.arg({ type: FileSortEnum, required: false, description: 'RECENT when absent.' }),
    },
    resolve: (query, _root, args, ctx) =>
      orGraphQLError(async () => {
        const { where, orderBy } = await listFilesQuery(ctx, {
          folderId: folderArg(args.folderId),
          sort: args.sort ?? 'recent',
        });
        return ctx.db.file.findMany({ ...query, where, orderBy });
      }),
  }),
  recentFiles: t.prismaConnection({
    type: 'File',
    cursor: 'id',
    description: 'The signed-in user’s files in any folder, newest upload first.',
    resolve: (query, _root, _args, ctx) => ctx.db.file.findMany({ ...query, ...recentFilesQuery(ctx) }),
  }),
  searchFolders: t.prismaConnection({
    type: 'Folder',
    cursor: 'id',
    description:
      'The signed-in user’s folders whose name holds the query (longer than 2 characters), case-insensitively, by name.',
    args: { query: t.arg.string({ required: true }) },
    resolve: (query, _root, args, ctx) =>
      orGraphQLError(() => ctx.db.folder.findMany({ ...query, ...folderSearch(ctx, args.query) })),
  }),
  searchFiles: t.connection({
    type: FileType,
    description:
      'Files the signed-in user may see whose name, original name or tags match the query (longer than 2 characters), best match first.',
    args: { query: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx, info) =>
      orGraphQLError(() =>
        resolveOffsetConnection(args, async ({ limit, offset }) => {
          const ids = await searchFileIds(ctx, args.query, { limit, offset });
          if (ids.length === 0) return [];
          const selection = queryFromInfo({ context: ctx, info, typeName: 'File', path: ['edges', 'node'] });
          const files = inOrder(ids, await ctx.db.file.findMany({ ...selection, where: { id: { in: ids } } }));
          // Every result's folder path in one query, instead of one per result (folderId is read
          // only when folderPath is asked for).
          await knownFolderPaths(
            ctx,
            files.map((f) => f.folderId ?? null),
          );
          return files;
        }),
      ),
  }),
}));

// ───────────────────────────── mutations ─────────────────────────────

const DeleteFolderResult = builder
  .objectRef<{ id: string; deletedFolders: number; deletedFiles: number }>('DeleteFolderResult')
  .implement({
    description: 'What deleteFolder removed.',
    fields: (t) => ({
      deletedFolderId: t.globalID({ resolve: (r) => ({ type: 'Folder', id: r.id }) }),
      deletedFolders: t.exposeInt('deletedFolders', { description: 'The folder and every folder inside it.' }),
      deletedFiles: t.exposeInt('deletedFiles'),
    }),
  });

const CreateFileInput = builder.inputType('CreateFileInput', {
  description: 'The record of an upload (the spec’s POST /api/files). Size and type come from the received bytes.',
  fields: (t) => ({
    name: t.string({ required: true }),
    originalName: t.string(),
    mimeType: t.string({ description: 'Used only when the server cannot tell the type from the bytes.' }),
    objectUrl: t.string({ required: true, description: 'The uploadURL the bytes were sent to.' }),
    folderId: t.globalID({ description: 'A Folder id; absent or null for the top level.' }),
    isPublic: t.boolean(),
    tags: t.stringList(),
    metadata: t.field({ type: 'JSON', description: 'e.g. { uploadedAt }.' }),
  }),
});

builder.mutationFields((t) => ({
  createFolder: rowMutation(t, 'Folder', {
    description: 'Creates a folder inside parentId (the top level when absent). Names are unique among siblings.',
    args: {
      name: t.arg.string({ required: true }),
      parentId: t.arg.globalID({ required: false }),
    },
    change: (args, ctx) => createFolder(ctx, { name: args.name, parentId: folderArg(args.parentId) }),
  }),
  renameFolder: rowMutation(t, 'Folder', {
    description: 'Renames one of the signed-in user’s folders.',
    args: { id: t.arg.globalID({ required: true }), name: t.arg.string({ required: true }) },
    change: (args, ctx) => renameFolder(ctx, rawId(args.id, 'Folder'), args.name),
  }),
  moveFolder: rowMutation(t, 'Folder', {
    description:
      'Moves a folder into another folder (or to the top level with parentId null). Never into itself or below itself.',
    args: { id: t.arg.globalID({ required: true }), parentId: t.arg.globalID({ required: false }) },
    change: (args, ctx) => moveFolder(ctx, rawId(args.id, 'Folder'), folderArg(args.parentId)),
  }),
  deleteFolder: t.field({
    type: DeleteFolderResult,
    description:
      'Deletes a folder. A folder with content is refused unless recursive is true; then everything in it is deleted too.',
    errors: {},
    args: {
      id: t.arg.globalID({ required: true }),
      recursive: t.arg.boolean({ required: false, defaultValue: false }),
    },
    resolve: (_root, args, ctx) => deleteFolder(ctx, rawId(args.id, 'Folder'), { recursive: args.recursive ?? false }),
  }),
  createFile: t.prismaField({
    type: 'File',
    description:
      'Records a finished upload as a file. When its name is taken in the folder, onConflict decides: KEEP_BOTH (the default) files it as "name (1).ext", REPLACE makes it a new version of that file, SKIP files nothing (UploadSkipped).',
    errors: { types: [UploadSkipped] },
    args: {
      input: t.arg({ type: CreateFileInput, required: true }),
      onConflict: t.arg({ type: UploadConflictChoiceEnum, required: false, defaultValue: 'keepBoth' }),
    },
    resolve: async (query, _root, { input, onConflict }, ctx) => {
      const filed = await createFileRecord(ctx, {
        onConflict: onConflict ?? 'keepBoth',
        name: input.name,
        objectUrl: input.objectUrl,
        ...(input.originalName != null && { originalName: input.originalName }),
        ...(input.mimeType != null && { mimeType: input.mimeType }),
        ...(input.isPublic != null && { isPublic: input.isPublic }),
        ...(input.tags != null && { tags: input.tags }),
        ...(input.metadata != null && { metadata: input.metadata }),
        folderId: folderArg(input.folderId),
      });
      if (filed.skipped) throw new UploadSkipped(filed.existing);
      return ctx.db.file.findUniqueOrThrow({ ...query, where: { id: filed.file.id } });
    },
  }),
  updateFile: rowMutation(t, 'File', {
    description:
      'Changes one of the signed-in user’s files. Omitted arguments stay as they are; metadata is merged into what is there.',
    args: {
      id: t.arg.globalID({ required: true }),
      name: t.arg.string({ required: false }),
      tags: t.arg.stringList({ required: false }),
      metadata: t.arg({ type: 'JSON', required: false }),
      folderId: t.arg.globalID({ required: false, description: 'Moves the file; null moves it to the top level.' }),
      isPublic: t.arg.boolean({ required: false }),
    },
    change: (args, ctx) =>
      updateFile(ctx, rawId(args.id, 'File'), {
        ...(args.name != null && { name: args.name }),
        ...(args.tags != null && { tags: args.tags }),
        ...(args.metadata != null && { metadata: args.metadata }),
        ...(args.isPublic != null && { isPublic: args.isPublic }),
        ...(args.folderId !== undefined && { folderId: folderArg(args.folderId) }),
      }),
  }),
  deleteFile: removalMutation(t, 'File', {
    description: 'Deletes one of the signed-in user’s files with all its versions; returns the deleted file’s id.',
    args: { id: t.arg.globalID({ required: true }) },
    change: (args, ctx) => deleteFile(ctx, rawId(args.id, 'File')),
  }),
  moveFiles: t.prismaField({
    type: ['File'],
    description:
      'Moves several of the signed-in user’s files into one folder (null: the top level), all or none: one file of someone else’s, or a name already taken there, moves nothing.',
    errors: {},
    args: {
      ids: t.arg.globalIDList({ required: true }),
      folderId: t.arg.globalID({ required: false, description: 'A Folder id; null moves the files to the top level.' }),
    },
    resolve: async (query, _root, args, ctx) => {
      const ids = args.ids.map((id) => rawId(id, 'File'));
      const moved = await moveFiles(ctx, { ids, folderId: folderArg(args.folderId) });
      const movedIds = moved.map((f) => f.id);
      return inOrder(movedIds, await ctx.db.file.findMany({ ...query, where: { id: { in: movedIds } } }));
    },
  }),
  deleteFiles: t.field({
    type: ['ID'],
    description:
      'Deletes several of the signed-in user’s files with all their versions, all or none; returns the deleted files’ ids.',
    errors: {},
    args: { ids: t.arg.globalIDList({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const { ids } = await deleteFiles(ctx, { ids: args.ids.map((id) => rawId(id, 'File')) });
      return ids.map((id) => encodeGlobalID('File', id));
    },
  }),
  uploadFileVersion: rowMutation(t, 'File', {
    description:
      'Upload new version: the finished upload at uploadURL becomes the newest version of a file the signed-in user may change. The file keeps its name; earlier versions stay restorable.',
    args: {
      fileId: t.arg.globalID({ required: true }),
      uploadURL: t.arg.string({ required: true, description: 'The uploadURL the bytes were sent to.' }),
      originalName: t.arg.string({ required: false, description: 'The uploaded file’s name on the device.' }),
      mimeType: t.arg.string({
        required: false,
        description: 'Used only when the server cannot tell the type from the bytes.',
      }),
    },
    change: async (args, ctx) => {
      const { file } = await createFileVersion(ctx, rawId(args.fileId, 'File'), {
        objectUrl: args.uploadURL,
        ...(args.originalName != null && { originalName: args.originalName }),
        ...(args.mimeType != null && { mimeType: args.mimeType }),
      });
      return file;
    },
  }),
  restoreFileVersion: rowMutation(t, 'File', {
    description: 'Makes an earlier version current again; it is added as the newest version, so history is kept.',
    args: { fileId: t.arg.globalID({ required: true }), version: t.arg.int({ required: true }) },
    change: async (args, ctx) => (await restoreVersion(ctx, rawId(args.fileId, 'File'), args.version)).file,
  }),
}));
