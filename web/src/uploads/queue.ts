// The upload list's state machine: pending → uploading → (images) analyzing
// at 90 % → completed at 100 %, or error with a message at any step; any item can be dismissed.
// A file whose name was taken in the folder and that the person chose to skip is never sent.
import type { ConflictChoice } from './conflicts.ts';
import { ANALYZING_PROGRESS, TRANSFER_SHARE } from './limits.ts';

export type UploadStatus = 'pending' | 'uploading' | 'analyzing' | 'completed' | 'error' | 'skipped';

export interface UploadItem {
  id: string;
  file: File;
  progress: number;
  status: UploadStatus;
  /** The stored object path once the file record exists. */
  url?: string;
  fileId?: string;
  analysis?: unknown;
  error?: string;
  /** What was chosen for a name already taken in the folder (absent: it was free). */
  choice?: ConflictChoice;
  /** The name the file was stored under, when keep-both numbered it. */
  storedAs?: string;
}

export type UploadAction =
  | { type: 'add'; items: { id: string; file: File; choice?: ConflictChoice }[] }
  | { type: 'start'; id: string }
  | { type: 'progress'; id: string; loaded: number; total: number }
  | { type: 'stored'; id: string; fileId: string; url: string; analyze: boolean; storedAs?: string }
  | { type: 'analyzed'; id: string; analysis?: unknown }
  | { type: 'failed'; id: string; error?: string }
  | { type: 'skipped'; id: string }
  | { type: 'dismiss'; id: string }
  | { type: 'clearFinished' };

const isFinal = (status: UploadStatus) => status === 'completed' || status === 'error' || status === 'skipped';

function update(items: UploadItem[], id: string, change: (item: UploadItem) => UploadItem | null) {
  return items.map((item) => (item.id === id ? (change(item) ?? item) : item));
}

export function uploadsReducer(items: UploadItem[], action: UploadAction): UploadItem[] {
  switch (action.type) {
    case 'add':
      return [
        ...items,
        ...action.items.map(({ id, file, choice }) => ({
          id,
          file,
          progress: 0,
          status: 'pending' as const,
          ...(choice && { choice }),
        })),
      ];
    case 'start':
      return update(items, action.id, (item) =>
        item.status === 'pending' ? { ...item, status: 'uploading', progress: 0 } : null,
      );
    case 'progress':
      return update(items, action.id, (item) => {
        if (item.status !== 'uploading' && item.status !== 'pending') return null;
        const fraction = action.total > 0 ? Math.min(1, action.loaded / action.total) : 0;
        // Never move backwards: a resumed transfer reports from where it restarted.
        const progress = Math.max(item.progress, Math.round(fraction * TRANSFER_SHARE));
        return { ...item, status: 'uploading', progress };
      });
    case 'stored':
      return update(items, action.id, (item) => {
        if (isFinal(item.status)) return null;
        const stored = {
          ...item,
          fileId: action.fileId,
          url: action.url,
          ...(action.storedAs && action.storedAs !== item.file.name && { storedAs: action.storedAs }),
        };
        return action.analyze
          ? { ...stored, status: 'analyzing', progress: ANALYZING_PROGRESS }
          : { ...stored, status: 'completed', progress: 100 };
      });
    case 'skipped':
      return update(items, action.id, (item) => (item.status === 'pending' ? { ...item, status: 'skipped' } : null));
    case 'analyzed':
      return update(items, action.id, (item) =>
        item.status === 'analyzing' ? { ...item, status: 'completed', progress: 100, analysis: action.analysis } : null,
      );
    case 'failed':
      return update(items, action.id, (item) =>
        item.status === 'completed' ? null : { ...item, status: 'error', error: action.error || 'Upload failed' },
      );
    case 'dismiss':
      return items.filter((item) => item.id !== action.id);
    case 'clearFinished':
      return items.filter((item) => item.status !== 'completed' && item.status !== 'skipped');
  }
}

/** Items that still count towards the 10-file limit. */
export function activeCount(items: UploadItem[]) {
  return items.filter((item) => !isFinal(item.status)).length;
}

/** The toast for a finished batch: how many succeeded and whether any failed. */
export function batchOutcome(results: boolean[]) {
  const succeeded = results.filter(Boolean).length;
  const failed = results.length - succeeded;
  return { succeeded, failed };
}
