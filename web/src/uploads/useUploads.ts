import { useCallback, useReducer, useRef } from 'react';
import { useRefreshStorageUsage } from '../shell/StorageUsageSlot.tsx';
import { toast } from '../ui/toast.tsx';
import { useConflictQuestions } from './useConflictQuestions.ts';
import { type BatchResult, batchSummary, type ConflictChoice, findConflicts } from './conflicts.ts';
import { isImage } from './limits.ts';
import { activeCount, type UploadItem, uploadsReducer } from './queue.ts';
import {
  analyzeFile,
  browserTransport,
  type StoredFile,
  type Transport,
  type UploadOptions,
  uploadFile,
  uploadTargetsFor,
} from './transport.ts';
import { useCreateFile } from './useCreateFile.ts';

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
  /** The file lists in the store that new files join (a folder's list on screen). */
  connections?: readonly string[];
  /** Called once a batch has finished, with the files that were stored and what to tell the user. */
  onBatchDone?: (stored: StoredFile[], summary: ReturnType<typeof batchSummary>) => void;
  /**
   * The caller tells the user about the batch itself (from onBatchDone's summary): one toast shows
   * at a time, so a second one right after the batch's would hide it.
   */
  quiet?: boolean;
  transport?: Transport;
}

export function useUploads(options: UseUploadsOptions = {}) {
  const [items, dispatch] = useReducer(uploadsReducer, [] as UploadItem[]);
  const { ask, prompt } = useConflictQuestions();
  const refreshStorage = useRefreshStorageUsage();
  const createFile = useCreateFile();
  // The latest options, so a batch started before a folder change still reports to current code.
  const optionsRef = useRef(options);
  optionsRef.current = options;

  const runOne = useCallback(
    async (
      id: string,
      file: File,
      folderId: string | null | undefined,
      onConflict: ConflictChoice | undefined,
      connections: readonly string[] | undefined,
      nextTarget: UploadOptions['nextTarget'],
    ) => {
      const { transport = browserTransport, onStored } = optionsRef.current;
      const record: UploadOptions['record'] =
        optionsRef.current.record ?? ((objectUrl, file, filing) => createFile(objectUrl, file, filing, connections));
      dispatch({ type: 'start', id });
      try {
        const stored = await uploadFile(
          file,
          {
            folderId,
            record,
            onConflict,
            nextTarget,
            onProgress: (loaded, total) => dispatch({ type: 'progress', id, loaded, total }),
          },
          transport,
        );
        const analyze = isImage(file);
        dispatch({ type: 'stored', id, fileId: stored.id, url: stored.objectPath, analyze, storedAs: stored.name });
        await onStored?.(stored);
        if (analyze) dispatch({ type: 'analyzed', id, analysis: await analyzeFile(stored, transport) });
        return stored;
      } catch (error) {
        dispatch({ type: 'failed', id, error: error instanceof Error ? error.message : undefined });
        return null;
      }
    },
    [createFile],
  );

  /**
   * Asks about the files whose name is already taken in the folder (not for 'Upload new version',
   * which names its file itself). Null: the person cancelled the batch.
   */
  const choicesFor = useCallback(
    async (batch: { id: string; file: File }[], folderId: string | null | undefined) => {
      const { transport = browserTransport, record } = optionsRef.current;
      if (record) return new Map<string, ConflictChoice>();
      let taken: Awaited<ReturnType<typeof findConflicts>> = [];
      try {
        taken = await findConflicts(
          transport.request,
          folderId,
          batch.map((entry) => entry.file.name),
        );
      } catch (error) {
        // Not asked is not lost: the server keeps both unless told otherwise.
        console.warn('Could not check for files of the same name', error);
      }
      const byName = new Map(taken.map((conflict) => [conflict.name, conflict]));
      return ask(
        batch.flatMap((entry) => {
          const conflict = byName.get(entry.file.name);
          return conflict ? [{ key: entry.id, conflict }] : [];
        }),
      );
    },
    [ask],
  );

  const addFiles = useCallback(
    async (files: File[]) => {
      if (files.length === 0) return [];
      // Where the batch goes, and the lists it joins, as they are when it starts.
      const { folderId, connections } = optionsRef.current;
      const asked = files.map((file) => ({ id: nextId(), file }));
      const choices = await choicesFor(asked, folderId);
      if (choices === null) {
        toast({ title: 'Upload cancelled', description: 'No files were uploaded.' });
        return [];
      }
      const batch = asked.map((entry) => ({ ...entry, choice: choices.get(entry.id) }));
      dispatch({ type: 'add', items: batch });
      // Kept in the batch's order (the gallery adds its uploads in the order they were chosen).
      const results: BatchResult[] = new Array(batch.length);
      const stored: (StoredFile | null)[] = new Array(batch.length).fill(null);
      const versioning = Boolean(optionsRef.current.record);
      // The batch's upload URLs in one request, for the files that will be sent.
      const sending = batch.filter((entry) => entry.choice !== 'skip').length;
      const nextTarget = uploadTargetsFor(sending, optionsRef.current.transport ?? browserTransport);
      let next = 0;
      const worker = async () => {
        while (next < batch.length) {
          const index = next++;
          const entry = batch[index];
          if (!entry) continue;
          const name = entry.file.name;
          if (entry.choice === 'skip') {
            dispatch({ type: 'skipped', id: entry.id });
            results[index] = { kind: 'skipped', name };
            continue;
          }
          const file = await runOne(entry.id, entry.file, folderId, entry.choice, connections, nextTarget);
          stored[index] = file;
          results[index] = !file
            ? { kind: 'failed', name }
            : versioning
              ? { kind: 'uploaded', name, storedAs: name, replaced: false }
              : { kind: 'uploaded', name, storedAs: file.name, replaced: (file.version ?? 1) > 1 };
        }
      };
      await Promise.all(Array.from({ length: Math.min(PARALLEL, batch.length) }, worker));
      const filed = stored.filter((file): file is StoredFile => file !== null);
      if (filed.length > 0) refreshStorage();
      const summary = batchSummary(results);
      if (!optionsRef.current.quiet) toast(summary);
      optionsRef.current.onBatchDone?.(filed, summary);
      return filed;
    },
    [runOne, choicesFor, refreshStorage],
  );

  const dismiss = useCallback((id: string) => dispatch({ type: 'dismiss', id }), []);
  const clearFinished = useCallback(() => dispatch({ type: 'clearFinished' }), []);

  return { items, addFiles, dismiss, clearFinished, active: activeCount(items), conflictPrompt: prompt };
}
