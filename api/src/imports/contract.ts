import type { ImportItem } from '../infra/import-sources/item.ts';

// The imports' REST data as it travels: the API answers with these shapes and the web app reads
// them (web/src/imports/api.ts imports these types), so the two cannot drift apart. Nothing here
// imports anything that runs: the web's compiler reads this file.

export type { ImportItem };

export const SOURCE_IDS = ['local', 'google-drive', 'dropbox'] as const;
export type SourceId = (typeof SOURCE_IDS)[number];

export interface SourceInfo {
  id: SourceId;
  name: string;
  /** The server offers it (the folder is set, or the OAuth client is configured). */
  available: boolean;
  connected: boolean;
  /** The outside account that is connected (e-mail or name), when known. */
  account: string | null;
}

export interface ImportJobJson {
  id: string;
  source: string;
  status: 'running' | 'completed' | 'failed';
  total: number;
  done: number;
  imported: number;
  failed: { name: string; message: string }[];
  fileIds: string[];
  /** Items not imported because their name was taken and the person chose to skip them. */
  skipped: string[];
  /** Items kept beside a file of the same name, under a numbered name. */
  renamed: { name: string; storedAs: string }[];
  /** Items that became a new version of the file of the same name. */
  replaced: string[];
  folderId: string | null;
  galleryId: string | null;
  /** ISO 8601. */
  createdAt: string;
  finishedAt: string | null;
}
