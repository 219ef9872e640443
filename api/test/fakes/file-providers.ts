import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

// Local fakes of the Google Drive v3 and Dropbox v2 HTTP APIs and their OAuth token endpoints:
// just the endpoints the import connectors call, each checking the bearer token as the real ones do.

export interface FakeFile {
  id: string;
  name: string;
  folder?: boolean;
  parent: string;
  bytes?: Buffer;
  /** Download answers this status instead of the bytes. */
  failWith?: number;
  mimeType?: string;
}

interface Seen {
  method: string;
  path: string;
  authorization: string | undefined;
  body: string;
  headers: IncomingMessage['headers'];
}

export interface FakeProvider {
  url: string;
  seen: Seen[];
  /** Access tokens the fake accepts right now. */
  accessTokens: Set<string>;
  refreshTokens: Set<string>;
  clientId: string;
  clientSecret: string;
  /** The codes the consent screen "issued", with the redirect URI each was issued for. */
  codes: Map<string, string>;
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage) {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function json(res: ServerResponse, status: number, value: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

async function start(
  name: string,
  handle: (fake: FakeProvider, req: IncomingMessage, res: ServerResponse, url: URL, body: string) => void,
): Promise<FakeProvider> {
  let counter = 0;
  const fake: FakeProvider = {
    url: '',
    seen: [],
    accessTokens: new Set(),
    refreshTokens: new Set(),
    clientId: `${name}-client`,
    clientSecret: `${name}-secret`,
    codes: new Map(),
    close: async () => {},
  };
  const server: Server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = await bodyOf(req);
    fake.seen.push({
      method: req.method ?? '',
      path: url.pathname,
      authorization: req.headers.authorization,
      body,
      headers: req.headers,
    });
    // The shared OAuth token endpoint (Google's /token, Dropbox's /oauth2/token).
    if (url.pathname === '/token' || url.pathname === '/oauth2/token') {
      const form = new URLSearchParams(body);
      if (form.get('client_id') !== fake.clientId || form.get('client_secret') !== fake.clientSecret) {
        return json(res, 401, { error: 'invalid_client' });
      }
      const grant = form.get('grant_type');
      const ok =
        grant === 'authorization_code'
          ? fake.codes.get(form.get('code') ?? '') === form.get('redirect_uri')
          : grant === 'refresh_token' && fake.refreshTokens.has(form.get('refresh_token') ?? '');
      if (!ok) return json(res, 400, { error: 'invalid_grant' });
      if (grant === 'authorization_code') fake.codes.delete(form.get('code') ?? '');
      counter += 1;
      const access = `${name}-access-${counter}`;
      fake.accessTokens.add(access);
      const answer: Record<string, unknown> = { access_token: access, expires_in: 3600, token_type: 'bearer' };
      if (grant === 'authorization_code') {
        const refresh = `${name}-refresh-${counter}`;
        fake.refreshTokens.add(refresh);
        answer.refresh_token = refresh;
      }
      return json(res, 200, answer);
    }
    const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    if (!token || !fake.accessTokens.has(token)) return json(res, 401, { error: 'invalid_token' });
    handle(fake, req, res, url, body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fake.close = () =>
    new Promise((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return fake;
}

function sendBytes(res: ServerResponse, file: FakeFile, extraHeaders: Record<string, string> = {}) {
  if (file.failWith) return json(res, file.failWith, { error: 'backend error' });
  const bytes = file.bytes ?? Buffer.alloc(0);
  res.writeHead(200, {
    'content-type': 'application/octet-stream',
    'content-length': String(bytes.length),
    ...extraHeaders,
  });
  res.end(bytes);
}

// ───────────── Google Drive ─────────────

export function startFakeGoogleDrive(files: FakeFile[]) {
  return start('drive', (fake, _req, res, url) => {
    const driveJson = (f: FakeFile) => ({
      id: f.id,
      name: f.name,
      mimeType: f.folder ? 'application/vnd.google-apps.folder' : (f.mimeType ?? 'application/octet-stream'),
      ...(f.bytes && { size: String(f.bytes.length) }),
      modifiedTime: '2026-11-01T10:00:00.000Z',
      ...(f.mimeType?.startsWith('image/') && { thumbnailLink: `${fake.url}/thumbnails/${f.id}` }),
    });
    if (url.pathname === '/drive/v3/about') {
      return json(res, 200, { user: { displayName: 'Scout', emailAddress: 'scout@drive.example' } });
    }
    if (url.pathname === '/drive/v3/files') {
      const q = url.searchParams.get('q') ?? '';
      const parent = /'((?:[^'\\]|\\.)*)' in parents/.exec(q)?.[1];
      const contains = /name contains '((?:[^'\\]|\\.)*)'/.exec(q)?.[1]?.replace(/\\(.)/g, '$1');
      const matches = files.filter(
        (f) =>
          (parent === undefined || f.parent === parent) &&
          (contains === undefined || f.name.toLowerCase().includes(contains.toLowerCase())),
      );
      // Two pages, so paging is exercised.
      const token = url.searchParams.get('pageToken');
      const half = Math.ceil(matches.length / 2);
      const page = token === 'page-2' ? matches.slice(half) : matches.slice(0, half);
      return json(res, 200, {
        files: page.map(driveJson),
        ...(token !== 'page-2' && half < matches.length && { nextPageToken: 'page-2' }),
      });
    }
    const thumb = /^\/thumbnails\/(.+)$/.exec(url.pathname);
    if (thumb) {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(Buffer.from('fake-thumbnail'));
    }
    const one = /^\/drive\/v3\/files\/([^/]+)$/.exec(url.pathname);
    const file = one && files.find((f) => f.id === decodeURIComponent(one[1] as string));
    if (!file) return json(res, 404, { error: { code: 404, message: 'File not found' } });
    if (url.searchParams.get('alt') === 'media') return sendBytes(res, file);
    return json(res, 200, { ...driveJson(file), trashed: false });
  });
}

// ───────────── Dropbox ─────────────

export function startFakeDropbox(files: FakeFile[]) {
  return start('dropbox', (_fake, req, res, url, body) => {
    const entry = (f: FakeFile) =>
      f.folder
        ? { '.tag': 'folder', id: f.id, name: f.name, path_lower: `/${f.name.toLowerCase()}` }
        : {
            '.tag': 'file',
            id: f.id,
            name: f.name,
            size: f.bytes?.length ?? 0,
            server_modified: '2026-11-02T09:00:00Z',
          };
    const notFound = () => json(res, 409, { error_summary: 'path/not_found/..', error: { '.tag': 'path' } });
    const arg = (): { path?: string; resource?: { path: string } } =>
      JSON.parse(String(req.headers['dropbox-api-arg'] ?? '{}'));
    const args = body ? (JSON.parse(body) as Record<string, unknown>) : {};
    switch (url.pathname) {
      case '/2/users/get_current_account':
        return json(res, 200, { email: 'scout@dropbox.example', name: { display_name: 'Scout' } });
      case '/2/files/list_folder': {
        const parent = (args.path as string) || 'root';
        if (parent !== 'root' && !files.some((f) => f.id === parent && f.folder)) return notFound();
        const children = files.filter((f) => f.parent === parent);
        const half = Math.ceil(children.length / 2);
        return json(res, 200, {
          entries: children.slice(0, half).map(entry),
          cursor: `${parent}|${half}`,
          has_more: half < children.length,
        });
      }
      case '/2/files/list_folder/continue': {
        const [parent, from] = String(args.cursor).split('|');
        const children = files.filter((f) => f.parent === parent);
        return json(res, 200, { entries: children.slice(Number(from)).map(entry), cursor: 'end', has_more: false });
      }
      case '/2/files/search_v2': {
        const query = String(args.query).toLowerCase();
        const matches = files.filter((f) => f.name.toLowerCase().includes(query));
        return json(res, 200, {
          matches: matches.map((f) => ({ metadata: { '.tag': 'metadata', metadata: entry(f) } })),
          has_more: false,
        });
      }
      case '/2/files/get_metadata': {
        const file = files.find((f) => f.id === args.path);
        return file ? json(res, 200, entry(file)) : notFound();
      }
      case '/2/files/download': {
        const file = files.find((f) => f.id === arg().path);
        if (!file) return notFound();
        return sendBytes(res, file, { 'dropbox-api-result': JSON.stringify(entry(file)) });
      }
      case '/2/files/get_thumbnail_v2': {
        const file = files.find((f) => f.id === arg().resource?.path);
        if (!file) return notFound();
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        return res.end(Buffer.from('fake-thumbnail'));
      }
      default:
        return json(res, 404, { error: 'no such endpoint' });
    }
  });
}
