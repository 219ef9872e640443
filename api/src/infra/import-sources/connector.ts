import type { OAuthSourceConfig } from '../../config.ts';
import { domainError } from '../../shared/errors.ts';

// What every outside source of files (Google Drive, Dropbox) gives the imports domain, and what it
// is given: its account's authorized fetch, and where the app serves an item's thumbnail.

import type { ImportItem } from './item.ts';

export type { ImportItem };

export interface Download {
  body: ReadableStream<Uint8Array>;
  /** Bytes the source announced, or null. */
  size: number | null;
}

export interface Thumbnail {
  body: ReadableStream<Uint8Array> | Uint8Array;
  contentType: string;
}

/** One source of files, bound to the person importing. Every source answers the same way. */
export interface SourceConnector {
  /** The folder's contents (the top level without one), or matches by name under it with a search. */
  list(options: { folder?: string; search?: string }): Promise<ImportItem[]>;
  /** One item by id, or NotFoundError. */
  describe(id: string): Promise<ImportItem>;
  download(id: string): Promise<Download>;
  thumbnail(id: string): Promise<Thumbnail>;
}

/** The words the import dialog shows when a source cannot be reached. */
export const CONNECTION_FAILED = 'Connection failed. Please try again.';

/** The source is down, refused us, or answered nonsense: the person can only try again. */
export class SourceUnavailableError extends domainError(502, 'SOURCE_UNAVAILABLE', CONNECTION_FAILED) {}

/** A source's JSON answer: an error status or a body that is not JSON means the source is unavailable. */
export async function sourceAnswer<T>(response: Response): Promise<T> {
  if (!response.ok) {
    await response.body?.cancel();
    throw new SourceUnavailableError();
  }
  return (await response.json().catch(() => {
    throw new SourceUnavailableError();
  })) as T;
}

/** A source's answer carrying a file's bytes: an error status or no body means the source is unavailable. */
export async function sourceBytes(response: Response): Promise<ReadableStream<Uint8Array>> {
  if (!response.ok || !response.body) {
    await response.body?.cancel();
    throw new SourceUnavailableError();
  }
  return response.body;
}

/** A source's answer to a download: the bytes, and how many when the source announced it. */
export async function sourceDownload(response: Response): Promise<Download> {
  const length = response.headers.get('content-length');
  return { body: await sourceBytes(response), size: length && /^\d+$/.test(length) ? Number(length) : null };
}

/** The outside sources reached through an OAuth account link. */
export type OAuthSourceId = 'google-drive' | 'dropbox';

export interface OAuthProvider {
  id: OAuthSourceId;
  config: OAuthSourceConfig;
  /** Read-only access to the person's files. */
  scope?: string;
  /** Extra parameters of the consent URL (offline access, so a refresh token comes back). */
  authorizeParams: Record<string, string>;
}

/** fetch with the person's access token, refreshed as needed. */
export type AuthorizedFetch = (url: string, init?: RequestInit & { timeoutMs?: number }) => Promise<Response>;

/** Where this server shows an item's thumbnail (the import dialog's pictures). */
export type ThumbnailUrl = (id: string) => string;

const IMAGE_EXTENSIONS = new Set(['jpg', 'jpeg', 'png', 'gif', 'webp', 'heic', 'heif', 'tif', 'tiff', 'bmp', 'avif']);

/** 'image' or 'file' from a MIME type when there is one, else from the name's extension. */
export function kindOf(name: string, mimeType?: string | null): 'image' | 'file' {
  if (mimeType?.startsWith('image/')) return 'image';
  const ext = /\.([^./]+)$/.exec(name)?.[1]?.toLowerCase();
  return ext && IMAGE_EXTENSIONS.has(ext) ? 'image' : 'file';
}

/** Folders first, then by name as people read it (2 before 10). */
export function byFolderThenName(a: ImportItem, b: ImportItem) {
  if ((a.type === 'folder') !== (b.type === 'folder')) return a.type === 'folder' ? -1 : 1;
  return a.name.localeCompare(b.name, undefined, { numeric: true, sensitivity: 'base' });
}
