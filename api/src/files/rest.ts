import { Hono } from 'hono';
import type { Services } from '../context.ts';
import type { AppEnv } from '../http/env.ts';
import { readJson, viewerContext } from '../http/helpers.ts';
import { ValidationError } from '../shared/errors.ts';
import { createFileRecord, nameConflicts } from './uploads.ts';
import { createFileVersion, listVersions, restoreVersion, versionJson } from './versions.ts';
import {
  deleteFile,
  fileForViewer,
  fileJson,
  listFiles,
  RECENT_FILES_LIMIT,
  recentFiles,
  updateFile,
} from './files.ts';
import { deleteFiles, moveFiles } from './bulk.ts';
import { createFolder, deleteFolder, folderJson, getFolder, listFolders, parseLimit, updateFolder } from './folders.ts';
import { folderPathOf, folderPaths, searchFiles } from './search.ts';
import type { NameConflictJson } from './contract.ts';

/** ?recursive=true asks for a folder to be deleted with everything in it; anything else is a mistake. */
function recursiveFlag(value: string | undefined) {
  if (value === undefined || value === 'false' || value === '0') return false;
  if (value === 'true' || value === '1') return true;
  throw new ValidationError('recursive must be true or false.', 'recursive');
}

/** Folders and file records: plain JSON arrays and objects, sizes as numbers of bytes. */
export function fileRoutes(services: Services) {
  const routes = new Hono<AppEnv>();

  // ── folders ──
  routes.get('/api/folders', async (c) => {
    const folders = await listFolders(viewerContext(c, services), c.req.query('parentId'));
    return c.json(folders.map(folderJson));
  });

  routes.post('/api/folders', async (c) => {
    return c.json(folderJson(await createFolder(viewerContext(c, services), await readJson(c))), 201);
  });

  routes.get('/api/folders/:id', async (c) => {
    return c.json(await getFolder(viewerContext(c, services), c.req.param('id')));
  });

  routes.patch('/api/folders/:id', async (c) => {
    const ctx = viewerContext(c, services);
    return c.json(folderJson(await updateFolder(ctx, c.req.param('id'), await readJson(c))));
  });

  routes.delete('/api/folders/:id', async (c) => {
    const ctx = viewerContext(c, services);
    const recursive = recursiveFlag(c.req.query('recursive'));
    return c.json({ success: true, ...(await deleteFolder(ctx, c.req.param('id'), { recursive })) });
  });

  // ── files (the fixed paths first: /recent and /search are not ids) ──
  routes.get('/api/files', async (c) => {
    const ctx = viewerContext(c, services);
    const files = await listFiles(ctx, { folderId: c.req.query('folderId'), sort: c.req.query('sort') });
    return c.json(files.map((f) => fileJson(f, ctx.viewer.id)));
  });

  routes.get('/api/files/recent', async (c) => {
    const limit = parseLimit(c.req.query('limit'), RECENT_FILES_LIMIT);
    const ctx = viewerContext(c, services);
    return c.json((await recentFiles(ctx, limit)).map((f) => fileJson(f, ctx.viewer.id)));
  });

  routes.get('/api/files/search', async (c) => {
    const ctx = viewerContext(c, services);
    const limit = parseLimit(c.req.query('limit'), 50);
    const files = await searchFiles(ctx, c.req.query('q') ?? '', { limit });
    const paths = await folderPaths(
      ctx,
      files.map((f) => f.folderId),
    );
    return c.json(
      files.map((f) => ({ ...fileJson(f, ctx.viewer.id), folderPath: folderPathOf(ctx.viewer.id, f, paths) })),
    );
  });

  // onConflict decides what a name already taken in the folder does; a skip files nothing (200).
  routes.post('/api/files', async (c) => {
    const ctx = viewerContext(c, services);
    const filed = await createFileRecord(ctx, await readJson(c));
    if (filed.skipped) return c.json({ skipped: true, existing: fileJson(filed.existing, ctx.viewer.id) }, 200);
    return c.json(
      { ...fileJson(filed.file, ctx.viewer.id), version: filed.version, renamedFrom: filed.renamedFrom },
      201,
    );
  });

  // ?folderId=&names=a.jpg&names=b.jpg: which names are taken there, asked before uploading.
  routes.get('/api/files/conflicts', async (c) => {
    const ctx = viewerContext(c, services);
    const conflicts = await nameConflicts(ctx, {
      folderId: c.req.query('folderId'),
      names: c.req.queries('names') ?? [],
    });
    return c.json({
      conflicts: conflicts.map((conflict) => ({ ...conflict, existing: fileJson(conflict.existing, ctx.viewer.id) })),
    } satisfies { conflicts: NameConflictJson[] });
  });

  // Several files at once, all or none: { ids, folderId } and { ids }.
  routes.post('/api/files/move', async (c) => {
    const ctx = viewerContext(c, services);
    const files = await moveFiles(ctx, await readJson(c));
    return c.json(files.map((f) => fileJson(f, ctx.viewer.id)));
  });

  routes.post('/api/files/delete', async (c) => {
    return c.json({ success: true, ...(await deleteFiles(viewerContext(c, services), await readJson(c))) });
  });

  routes.get('/api/files/:id', async (c) => {
    const ctx = viewerContext(c, services);
    return c.json(fileJson(await fileForViewer(ctx, c.req.param('id')), ctx.viewer.id));
  });

  routes.patch('/api/files/:id', async (c) => {
    const ctx = viewerContext(c, services);
    return c.json(fileJson(await updateFile(ctx, c.req.param('id'), await readJson(c)), ctx.viewer.id));
  });

  routes.delete('/api/files/:id', async (c) => {
    const ctx = viewerContext(c, services);
    return c.json({ success: true, ...(await deleteFile(ctx, c.req.param('id'))) });
  });

  routes.get('/api/files/:id/versions', async (c) => {
    const { versions, currentVersion } = await listVersions(viewerContext(c, services), c.req.param('id'));
    return c.json(versions.map((v) => versionJson(v, currentVersion)));
  });

  // 'Upload new version': the body is the same { objectUrl } a new file's record gets.
  routes.post('/api/files/:id/versions', async (c) => {
    const ctx = viewerContext(c, services);
    const { file, version } = await createFileVersion(ctx, c.req.param('id'), await readJson(c));
    return c.json({ ...fileJson(file, ctx.viewer.id), version }, 201);
  });

  routes.post('/api/files/:id/versions/:version/restore', async (c) => {
    const ctx = viewerContext(c, services);
    const { file, version } = await restoreVersion(ctx, c.req.param('id'), c.req.param('version'));
    return c.json({ ...fileJson(file, ctx.viewer.id), version: version.version });
  });

  return routes;
}
