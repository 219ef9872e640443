import { useCallback, useReducer, useRef } from 'react';
import { toast } from '../ui/toast.tsx';
import { isImage } from './limits.ts';
import { activeCount, batchOutcome, type UploadItem, uploadsReducer } from './queue.ts';
import {
  analyzeFile,
  browserTransport,
  type StoredFile,
  type Transport,
  type UploadOptions,
  uploadFile,
} from './transport.ts';

/** How many files travel at once: enough to fill the pipe, few enough to show real progress. */
const PARALLEL = 3;

let counter = 0;
const nextId = () => `upload-${Date.now().toString(36)}-${(counter++).toString(36)}`;

export interface UseUploadsOptions {
  folderId?: string | null;
  /** Called for each file once its record exists (e.g. to add it to a gallery). */
  onStored?: (file: StoredFile) => void | Promise<void>;
  /** Files each upload's bytes in place of a new file record (see UploadOptions.record). */
  record?: UploadOptions['record'];
  /** Called once a batch has finished, with the files that were stored. */
  onBatchDone?: (stored: StoredFile[]) => void;
  transport?: Transport;
}

export function useUploads(options: UseUploadsOptions = {}) {
  const [items, dispatch] = useReducer(uploadsReducer, [] as UploadItem[]);
  // The latest options, so a batch started before a folder change still reports to current code.
  const optionsRef = useRef(options);
  optionsRef.current = options;

  const runOne = useCallback(async (id: string, file: File, folderId: string | null | undefined) => {
    const { transport = browserTransport, onStored, record } = optionsRef.current;
    dispatch({ type: 'start', id });
    try {
      const stored = await uploadFile(
        file,
        { folderId, record, onProgress: (loaded, total) => dispatch({ type: 'progress', id, loaded, total }) },
        transport,
      );
      const analyze = isImage(file);
      dispatch({ type: 'stored', id, fileId: stored.id, url: stored.objectPath, analyze });
      await onStored?.(stored);
      if (analyze) dispatch({ type: 'analyzed', id, analysis: await analyzeFile(stored, transport) });
      return stored;
    } catch (error) {
      dispatch({ type: 'failed', id, error: error instanceof Error ? error.message : undefined });
      return null;
    }
  }, []);

  const addFiles = useCallback(
    async (files: File[]) => {
      if (files.length === 0) return [];
      const folderId = optionsRef.current.folderId;
      const batch = files.map((file) => ({ id: nextId(), file }));
      dispatch({ type: 'add', items: batch });
      const results: (StoredFile | null)[] = new Array(batch.length).fill(null);
      let next = 0;
      const worker = async () => {
        while (next < batch.length) {
          const index = next++;
          const entry = batch[index];
          if (entry) results[index] = await runOne(entry.id, entry.file, folderId);
        }
      };
      await Promise.all(Array.from({ length: Math.min(PARALLEL, batch.length) }, worker));
      const stored = results.filter((r): r is StoredFile => r !== null);
      const { succeeded, failed } = batchOutcome(results.map((r) => r !== null));
      if (failed > 0) {
        toast({ title: 'Upload error', description: 'Some files failed to upload.', variant: 'destructive' });
      } else {
        toast({ title: 'Upload successful', description: `${succeeded} file(s) uploaded successfully` });
      }
      optionsRef.current.onBatchDone?.(stored);
      return stored;
    },
    [runOne],
  );

  const dismiss = useCallback((id: string) => dispatch({ type: 'dismiss', id }), []);
  const clearFinished = useCallback(() => dispatch({ type: 'clearFinished' }), []);

  return { items, addFiles, dismiss, clearFinished, active: activeCount(items) };
}
