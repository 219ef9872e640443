import type { OAuthSourceConfig } from '../../config.ts';
import { NotFoundError } from '../../shared/errors.ts';
import type { AuthorizedFetch, ImportItem, OAuthProvider, SourceConnector, ThumbnailUrl } from './connector.ts';
import { byFolderThenName, kindOf, sourceAnswer, sourceDownload } from './connector.ts';

// Google Drive v3: files.list for folders and search, files.get?alt=media for the bytes.

const FOLDER = 'application/vnd.google-apps.folder';
const FIELDS = 'id,name,mimeType,size,modifiedTime,thumbnailLink';

export function googleDriveProvider(config: OAuthSourceConfig): OAuthProvider {
  return {
    id: 'google-drive',
    config,
    scope: 'https://www.googleapis.com/auth/drive.readonly https://www.googleapis.com/auth/userinfo.email',
    // offline + consent: Google sends a refresh token, also when the person connected before.
    authorizeParams: { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' },
  };
}

interface DriveFile {
  id: string;
  name: string;
  mimeType: string;
  size?: string;
  modifiedTime?: string;
  thumbnailLink?: string;
}

/** A Drive query string literal: backslashes and quotes escaped. */
function literal(text: string) {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function itemOf(file: DriveFile, thumbnailUrl: ThumbnailUrl): ImportItem | null {
  if (file.mimeType === FOLDER) {
    return { id: file.id, name: file.name, type: 'folder', size: null, modifiedAt: file.modifiedTime ?? null };
  }
  // Google Docs, Sheets and the like have no bytes to download (they would need an export).
  if (file.mimeType.startsWith('application/vnd.google-apps.')) return null;
  const type = kindOf(file.name, file.mimeType);
  return {
    id: file.id,
    name: file.name,
    type,
    size: file.size !== undefined ? Number(file.size) : null,
    modifiedAt: file.modifiedTime ?? null,
    ...(type === 'image' && file.thumbnailLink && { thumbnail: thumbnailUrl(file.id) }),
  };
}

export async function googleDriveAccount(config: OAuthSourceConfig, accessToken: string) {
  const response = await fetch(`${config.apiUrl}/drive/v3/about?fields=user(displayName,emailAddress)`, {
    headers: { authorization: `Bearer ${accessToken}` },
    signal: AbortSignal.timeout(15_000),
  });
  if (!response.ok) return null;
  const about = (await response.json()) as { user?: { emailAddress?: string; displayName?: string } };
  return about.user?.emailAddress ?? about.user?.displayName ?? null;
}

export function googleDriveSource(
  config: OAuthSourceConfig,
  api: AuthorizedFetch,
  thumbnailUrl: ThumbnailUrl,
): SourceConnector {
  const files = `${config.apiUrl}/drive/v3/files`;

  async function json<T>(response: Response, missing?: () => Error): Promise<T> {
    if (response.status === 404 && missing) throw missing();
    return sourceAnswer<T>(response);
  }

  async function metadata(id: string) {
    if (!/^[\w-]{1,200}$/.test(id)) throw new NotFoundError('Import item');
    const response = await api(`${files}/${encodeURIComponent(id)}?fields=${FIELDS},trashed`);
    const file = await json<DriveFile & { trashed?: boolean }>(response, () => new NotFoundError('Import item'));
    if (file.trashed) throw new NotFoundError('Import item');
    return file;
  }

  return {
    async list({ folder, search }) {
      const clauses = ['trashed = false'];
      const needle = search?.trim();
      if (needle) clauses.push(`name contains ${literal(needle)}`);
      if (folder || !needle) clauses.push(`${literal(folder || 'root')} in parents`);
      const items: ImportItem[] = [];
      let pageToken: string | undefined;
      // A few pages at most: the dialog is for picking files, not for mirroring a drive.
      for (let page = 0; page < 5; page++) {
        const url = new URL(files);
        url.searchParams.set('q', clauses.join(' and '));
        url.searchParams.set('fields', `nextPageToken,files(${FIELDS})`);
        url.searchParams.set('pageSize', '200');
        url.searchParams.set('orderBy', 'folder,name');
        if (pageToken) url.searchParams.set('pageToken', pageToken);
        const answer = await json<{ files?: DriveFile[]; nextPageToken?: string }>(await api(url.toString()));
        for (const file of answer.files ?? []) {
          const item = itemOf(file, thumbnailUrl);
          if (item) items.push(item);
        }
        pageToken = answer.nextPageToken;
        if (!pageToken) break;
      }
      return items.sort(byFolderThenName);
    },

    async describe(id) {
      const item = itemOf(await metadata(id), thumbnailUrl);
      if (!item) throw new NotFoundError('Import item');
      return item;
    },

    async download(id) {
      await metadata(id);
      const response = await api(`${files}/${encodeURIComponent(id)}?alt=media`, { timeoutMs: 30 * 60_000 });
      if (response.status === 404) throw new NotFoundError('Import item');
      return sourceDownload(response);
    },

    async thumbnail(id) {
      const file = await metadata(id);
      if (!file.thumbnailLink) throw new NotFoundError('Thumbnail');
      // The token only goes to Google's own hosts (or the configured API, a fake in tests).
      const link = new URL(file.thumbnailLink);
      const trusted = link.host === new URL(config.apiUrl).host || link.hostname.endsWith('.googleusercontent.com');
      const response = trusted
        ? await api(link.toString())
        : await fetch(link, { signal: AbortSignal.timeout(15_000) }).catch(() => {
            throw new NotFoundError('Thumbnail');
          });
      if (!response.ok || !response.body) {
        await response.body?.cancel();
        throw new NotFoundError('Thumbnail');
      }
      return { body: response.body, contentType: response.headers.get('content-type') ?? 'image/jpeg' };
    },
  };
}
