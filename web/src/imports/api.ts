import { dataRequest } from '../lib/http.ts';
import type { ConflictChoice } from '../uploads/conflicts.ts';
import type { ImportItem, ImportJobJson, SourceId, SourceInfo } from '../../../api/src/imports/contract.ts';

// The import paths of the API (api/src/imports/rest.ts); their data types are the API's own.

export type { ImportItem, SourceId };
export type ImportSource = SourceInfo;
export type ImportJob = ImportJobJson;

export function importSources() {
  return dataRequest<ImportSource[]>('GET', '/api/imports/sources');
}

export function importItems(source: SourceId, { folder, search }: { folder?: string; search?: string }) {
  const query = new URLSearchParams();
  if (folder) query.set('folder', folder);
  if (search) query.set('search', search);
  const suffix = query.size > 0 ? `?${query}` : '';
  return dataRequest<ImportItem[]>('GET', `/api/imports/${source}/items${suffix}`);
}

export function startImport(input: {
  source: SourceId;
  itemIds: string[];
  folderId?: string | null;
  galleryId?: string | null;
  onConflict?: ConflictChoice;
  onConflictByItem?: Record<string, ConflictChoice>;
}) {
  return dataRequest<ImportJob>('POST', '/api/imports', input);
}

export function importJob(id: string) {
  return dataRequest<ImportJob>('GET', `/api/imports/${id}`);
}

/** The API answers 409 when an OAuth source still has to be connected (or the link expired). */
export function needsConnection(error: unknown) {
  return error instanceof Error && error.message.startsWith('409:');
}

/**
 * Connects an OAuth source in a popup: the server sends it on to the provider's consent screen,
 * and the callback page posts back whether it worked. Resolves false if the popup is closed first.
 */
export function connectInPopup(source: SourceId): Promise<boolean> {
  return new Promise((resolve) => {
    const popup = window.open(`/api/imports/${source}/connect`, `scoutbase-connect-${source}`, 'width=520,height=680');
    if (!popup) {
      resolve(false);
      return;
    }
    let settled = false;
    const finish = (ok: boolean) => {
      if (settled) return;
      settled = true;
      window.removeEventListener('message', onMessage);
      window.clearInterval(watch);
      resolve(ok);
    };
    function onMessage(event: MessageEvent) {
      const data = event.data as { type?: string; source?: string; ok?: boolean } | null;
      if (event.origin !== window.location.origin || data?.type !== 'scoutbase:import-connection') return;
      if (data.source === source) finish(Boolean(data.ok));
    }
    window.addEventListener('message', onMessage);
    // A popup closed by hand never posts; give a late message a moment before calling it failed.
    const watch = window.setInterval(() => {
      if (popup.closed) window.setTimeout(() => finish(false), 300);
    }, 500);
  });
}
