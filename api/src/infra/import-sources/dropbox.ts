import type { OAuthSourceConfig } from '../../config.ts';
import { NotFoundError } from '../../shared/errors.ts';
import type { AuthorizedFetch, ImportItem, OAuthProvider, SourceConnector, ThumbnailUrl } from './connector.ts';
import {
  byFolderThenName,
  kindOf,
  sourceAnswer,
  sourceBytes,
  sourceDownload,
  SourceUnavailableError,
} from './connector.ts';

// Dropbox API v2: /2/files/list_folder (+ /continue), /2/files/search_v2, /2/files/get_metadata,
// and /2/files/download and /2/files/get_thumbnail_v2 on the content host.

export type DropboxConfig = OAuthSourceConfig & { contentUrl: string };

export function dropboxProvider(config: DropboxConfig): OAuthProvider {
  return {
    id: 'dropbox',
    config,
    // offline: Dropbox sends a refresh token next to its short-lived access token.
    authorizeParams: { token_access_type: 'offline' },
  };
}

interface Entry {
  '.tag': 'file' | 'folder' | 'deleted';
  id?: string;
  name: string;
  size?: number;
  server_modified?: string;
  client_modified?: string;
}

function itemOf(entry: Entry, thumbnailUrl: ThumbnailUrl): ImportItem | null {
  if (!entry.id || entry['.tag'] === 'deleted') return null;
  if (entry['.tag'] === 'folder')
    return { id: entry.id, name: entry.name, type: 'folder', size: null, modifiedAt: null };
  const type = kindOf(entry.name);
  return {
    id: entry.id,
    name: entry.name,
    type,
    size: entry.size ?? null,
    modifiedAt: entry.server_modified ?? entry.client_modified ?? null,
    ...(type === 'image' && { thumbnail: thumbnailUrl(entry.id) }),
  };
}

/** Dropbox-API-Arg must be ASCII: everything else is sent as \uXXXX escapes. */
function apiArg(value: unknown) {
  return JSON.stringify(value).replace(
    /[\u007f-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
}

/** Dropbox ids look like "id:a4ayc_80_OEAAAAAAAAAXw". */
function checkedId(id: string) {
  if (!/^id:[\w-]{1,200}$/.test(id)) throw new NotFoundError('Import item');
  return id;
}

export async function dropboxAccount(config: DropboxConfig, accessToken: string) {
  const response = await fetch(`${config.apiUrl}/2/users/get_current_account`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accessToken}` },
    signal: AbortSignal.timeout(15_000),
  });
  if (!response.ok) return null;
  const account = (await response.json()) as { email?: string; name?: { display_name?: string } };
  return account.email ?? account.name?.display_name ?? null;
}

export function dropboxSource(
  config: DropboxConfig,
  api: AuthorizedFetch,
  thumbnailUrl: ThumbnailUrl,
): SourceConnector {
  async function rpc<T>(endpoint: string, body: unknown): Promise<T> {
    const response = await api(`${config.apiUrl}/2/${endpoint}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    // 409 is Dropbox's "endpoint-specific error", e.g. path/not_found.
    if (response.status === 409) {
      const error = (await response.json().catch(() => null)) as { error_summary?: string } | null;
      if (error?.error_summary?.includes('not_found')) throw new NotFoundError('Import item');
      throw new SourceUnavailableError();
    }
    return sourceAnswer<T>(response);
  }

  async function content(endpoint: string, arg: unknown) {
    const response = await api(`${config.contentUrl}/2/${endpoint}`, {
      method: 'POST',
      headers: { 'Dropbox-API-Arg': apiArg(arg) },
      timeoutMs: 30 * 60_000,
    });
    if (response.status === 409) {
      await response.body?.cancel();
      throw new NotFoundError('Import item');
    }
    return response;
  }

  return {
    async list({ folder, search }) {
      const path = folder ? checkedId(folder) : '';
      const needle = search?.trim();
      const items: ImportItem[] = [];
      if (needle) {
        const answer = await rpc<{ matches?: { metadata?: { metadata?: Entry } }[] }>('files/search_v2', {
          query: needle,
          options: { ...(path && { path }), max_results: 200, file_status: 'active', filename_only: true },
        });
        for (const match of answer.matches ?? []) {
          const item = match.metadata?.metadata ? itemOf(match.metadata.metadata, thumbnailUrl) : null;
          if (item) items.push(item);
        }
        return items.sort(byFolderThenName);
      }
      let answer = await rpc<{ entries: Entry[]; cursor: string; has_more: boolean }>('files/list_folder', {
        path,
        limit: 500,
      });
      for (let page = 0; ; page++) {
        for (const entry of answer.entries ?? []) {
          const item = itemOf(entry, thumbnailUrl);
          if (item) items.push(item);
        }
        if (!answer.has_more || page >= 4) break;
        answer = await rpc('files/list_folder/continue', { cursor: answer.cursor });
      }
      return items.sort(byFolderThenName);
    },

    async describe(id) {
      const entry = await rpc<Entry>('files/get_metadata', { path: checkedId(id) });
      const item = itemOf(entry, thumbnailUrl);
      if (!item) throw new NotFoundError('Import item');
      return item;
    },

    async download(id) {
      return sourceDownload(await content('files/download', { path: checkedId(id) }));
    },

    async thumbnail(id) {
      const response = await content('files/get_thumbnail_v2', {
        resource: { '.tag': 'path', path: checkedId(id) },
        format: 'jpeg',
        size: 'w256h256',
      });
      return { body: await sourceBytes(response), contentType: 'image/jpeg' };
    },
  };
}
