import { useCallback, useEffect, useRef, useState } from 'react';
import { countOf, formatFileSize } from '../lib/format.ts';
import { isUnauthorizedError } from '../lib/unauthorized.ts';
import { Button } from '../ui/Button.tsx';
import { Dialog, DialogActions } from '../ui/Dialog.tsx';
import { SearchField } from '../ui/Field.tsx';
import { AlertIcon, FileIcon, FolderIcon, HardDriveIcon, ImageIcon } from '../ui/icons.tsx';
import { Spinner } from '../ui/Spinner.tsx';
import { useRefreshStorageUsage } from '../shell/StorageUsageSlot.tsx';
import { toast } from '../ui/toast.tsx';
import { ConflictQuestionView } from '../uploads/ConflictDialog.tsx';
import { useConflictQuestions } from '../uploads/useConflictQuestions.ts';
import { type BatchResult, batchSummary, findConflicts } from '../uploads/conflicts.ts';
import { dataRequest } from '../lib/http.ts';
import {
  connectInPopup,
  type ImportItem,
  type ImportJob,
  type ImportSource,
  importItems,
  importJob,
  importSources,
  needsConnection,
  type SourceId,
  startImport,
} from './api.ts';

// The import flow: choose a source, connect, pick files (never folders),
// import with progress. Sources are real: the server's import folder, Google Drive, Dropbox.

const CONNECTION_FAILED = 'Connection failed. Please try again.';

type Step =
  | { kind: 'sources' }
  | { kind: 'connecting'; source: ImportSource }
  | { kind: 'failed'; source: ImportSource }
  | { kind: 'browse'; source: ImportSource }
  | { kind: 'conflicts'; source: ImportSource }
  | { kind: 'importing'; source: ImportSource; job: ImportJob | null };

export interface ImportDialogProps {
  open: boolean;
  onClose: () => void;
  /** Where the files go: a folder of the file manager (raw id; null for the top level)… */
  folderId?: string | null;
  /** …and a gallery to add them to (raw id). */
  galleryId?: string | null;
  /** 'media' says 'Media imported' when done (galleries); 'files' says 'Files imported'. */
  kind?: 'files' | 'media';
  onImported?: (job: ImportJob) => void;
  /** Go straight to this source when it is offered (the dashboard's "Import from" menu). */
  initialSource?: SourceId | null;
}

function ItemIcon({ item }: { item: ImportItem }) {
  if (item.type === 'folder') return <FolderIcon className="h-5 w-5 text-amber-500" />;
  if (item.type === 'image' && item.thumbnail) {
    return <img src={item.thumbnail} alt="" loading="lazy" className="h-8 w-8 rounded object-cover" />;
  }
  if (item.type === 'image') return <ImageIcon className="h-5 w-5 text-indigo-500" />;
  return <FileIcon className="h-5 w-5 text-slate-500" />;
}

function SourceButton({ source, onChoose }: { source: ImportSource; onChoose: () => void }) {
  const status = !source.available
    ? 'Not set up on this server'
    : source.connected
      ? source.account
        ? `Connected as ${source.account}`
        : 'Connected'
      : 'Not connected';
  return (
    <button
      type="button"
      onClick={onChoose}
      disabled={!source.available}
      className="flex w-full items-center gap-3 rounded-lg border border-slate-200 p-4 text-left hover:border-indigo-400 hover:bg-indigo-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 disabled:cursor-not-allowed disabled:opacity-50 dark:border-slate-700 dark:hover:bg-slate-800"
    >
      <HardDriveIcon className="h-6 w-6 text-slate-500" />
      <span className="flex-1">
        <span className="block font-medium text-slate-900 dark:text-slate-100">{source.name}</span>
        <span className="block text-xs text-slate-500 dark:text-slate-400">{status}</span>
      </span>
    </button>
  );
}

/**
 * Connects in a popup. When the popup went away without a word (a provider page with a strict
 * opener policy cuts the link), the server knows whether the connection was made.
 */
async function connectedThroughPopup(source: SourceId) {
  if (await connectInPopup(source)) return true;
  const sources = await importSources().catch(() => []);
  return sources.some((s) => s.id === source && s.connected);
}

export function ImportDialog({
  open,
  onClose,
  folderId = null,
  galleryId = null,
  kind = 'files',
  onImported,
  initialSource = null,
}: ImportDialogProps) {
  const [step, setStep] = useState<Step>({ kind: 'sources' });
  const [sources, setSources] = useState<ImportSource[] | null>(null);
  const [items, setItems] = useState<ImportItem[] | null>(null);
  const [path, setPath] = useState<{ id: string; name: string }[]>([]);
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<Map<string, ImportItem>>(new Map());
  const [listing, setListing] = useState(false);
  const { ask, prompt } = useConflictQuestions();
  const refreshStorage = useRefreshStorageUsage();
  const request = useRef(0);
  // What the list shows now (source|folder|search), so the search effect does not list it twice.
  const shown = useRef('');

  // Every opening starts at the choice of source.
  useEffect(() => {
    if (!open) return;
    setStep({ kind: 'sources' });
    setSources(null);
    setItems(null);
    setPath([]);
    setSearch('');
    setSelected(new Map());
    importSources()
      .then(setSources)
      .catch((error) => {
        if (!isUnauthorizedError(error)) setSources([]);
      });
  }, [open]);

  const load = useCallback(async (source: ImportSource, folder: string | undefined, term: string) => {
    const ticket = ++request.current;
    setListing(true);
    try {
      const found = await importItems(source.id, { folder, search: term.trim() || undefined });
      if (ticket === request.current) {
        setItems(found);
        shown.current = `${source.id}|${folder ?? ''}|${term.trim()}`;
      }
      return true;
    } finally {
      if (ticket === request.current) setListing(false);
    }
  }, []);

  /** Connecting: the folder answers at once; Drive and Dropbox may first need the popup. */
  const connect = useCallback(
    async (source: ImportSource) => {
      setStep({ kind: 'connecting', source });
      setItems(null);
      setPath([]);
      setSearch('');
      setSelected(new Map());
      try {
        if (!source.connected && source.id !== 'local' && !(await connectedThroughPopup(source.id))) {
          setStep({ kind: 'failed', source });
          return;
        }
        try {
          await load(source, undefined, '');
        } catch (error) {
          // The link expired since the list of sources was read: connect once more.
          if (!needsConnection(error) || !(await connectedThroughPopup(source.id))) throw error;
          await load(source, undefined, '');
        }
        const connected = { ...source, connected: true };
        setSources((all) => all?.map((s) => (s.id === source.id ? connected : s)) ?? all);
        setStep({ kind: 'browse', source: connected });
      } catch (error) {
        if (isUnauthorizedError(error)) return;
        setStep({ kind: 'failed', source });
      }
    },
    [load],
  );

  // Opened for one source: connect to it as soon as the sources are known (if it is offered).
  const started = useRef(false);
  useEffect(() => {
    if (!open) {
      started.current = false;
      setSources(null);
      return;
    }
    const source = sources?.find((s) => s.id === initialSource);
    if (started.current || !source?.available) return;
    started.current = true;
    void connect(source);
  }, [open, sources, initialSource, connect]);

  // Search as the person types, after a short pause.
  const browsing = step.kind === 'browse' ? step.source : null;
  const folder = path.at(-1)?.id;
  useEffect(() => {
    if (!browsing || shown.current === `${browsing.id}|${folder ?? ''}|${search.trim()}`) return;
    const timer = setTimeout(() => {
      load(browsing, folder, search).catch((error) => {
        if (!isUnauthorizedError(error)) setStep({ kind: 'failed', source: browsing });
      });
    }, 300);
    return () => clearTimeout(timer);
  }, [browsing, folder, search, load]);

  function openFolder(item: ImportItem) {
    setSearch('');
    setPath((p) => [...p, { id: item.id, name: item.name }]);
  }

  function toggle(item: ImportItem) {
    if (item.type === 'folder') return;
    setSelected((current) => {
      const next = new Map(current);
      if (next.has(item.id)) next.delete(item.id);
      else next.set(item.id, item);
      return next;
    });
  }

  /** Asks about the chosen files whose names are taken in the folder; null when the person cancelled. */
  async function conflictChoices(source: ImportSource) {
    let taken: Awaited<ReturnType<typeof findConflicts>> = [];
    try {
      taken = await findConflicts(
        dataRequest,
        folderId,
        [...selected.values()].map((item) => item.name),
      );
    } catch (error) {
      if (isUnauthorizedError(error)) return null;
      // Not asked is not lost: the server keeps both unless told otherwise.
      console.warn('Could not check for files of the same name', error);
    }
    const byName = new Map(taken.map((conflict) => [conflict.name, conflict]));
    const questions = [...selected.values()].flatMap((item) => {
      const conflict = byName.get(item.name);
      return conflict ? [{ key: item.id, conflict }] : [];
    });
    if (questions.length > 0) setStep({ kind: 'conflicts', source });
    const answers = await ask(questions);
    if (answers === null) setStep({ kind: 'browse', source });
    return answers;
  }

  async function runImport(source: ImportSource) {
    const itemIds = [...selected.keys()];
    if (itemIds.length === 0) return;
    const answers = await conflictChoices(source);
    if (answers === null) return;
    setStep({ kind: 'importing', source, job: null });
    try {
      let job = await startImport({
        source: source.id,
        itemIds,
        folderId,
        galleryId,
        onConflict: 'keepBoth',
        onConflictByItem: Object.fromEntries(answers),
      });
      setStep({ kind: 'importing', source, job });
      while (job.status === 'running') {
        await new Promise((resolve) => setTimeout(resolve, 400));
        job = await importJob(job.id);
        setStep({ kind: 'importing', source, job });
      }
      finish(job);
    } catch (error) {
      if (isUnauthorizedError(error)) return;
      toast({ title: 'Error', description: CONNECTION_FAILED, variant: 'destructive' });
      setStep({ kind: 'browse', source });
    }
  }

  function finish(job: ImportJob) {
    const skipped = job.skipped ?? [];
    if (job.imported === 0 && skipped.length === 0) {
      toast({
        title: 'Error',
        description: job.failed[0]?.message ?? 'Nothing could be imported.',
        variant: 'destructive',
      });
    } else {
      toast(
        batchSummary(importResults(job), {
          count: (n) => countOf(n, 'file'),
          done: 'imported',
          doing: 'import',
          successTitle: kind === 'media' ? 'Media imported' : 'Files imported',
          errorTitle: kind === 'media' ? 'Media imported' : 'Files imported',
          nothingTitle: 'Nothing imported',
        }),
      );
    }
    refreshStorage();
    onImported?.(job);
    onClose();
  }

  const importing = step.kind === 'importing';
  const title = step.kind === 'sources' ? 'Import files' : `Import from ${step.source.name}`;

  return (
    <Dialog
      open={open}
      onClose={() => (step.kind === 'conflicts' ? prompt?.cancel() : !importing && onClose())}
      title={title}
      description={
        step.kind === 'sources' ? 'Choose where to import from.' : 'Choose the files to import (folders open).'
      }
      size="lg"
    >
      {step.kind === 'sources' && (
        <div className="space-y-3">
          {sources === null ? (
            <div className="flex justify-center py-8">
              <Spinner label="Loading sources" />
            </div>
          ) : sources.length === 0 ? (
            <p className="text-sm text-slate-600 dark:text-slate-400">{CONNECTION_FAILED}</p>
          ) : (
            sources.map((source) => <SourceButton key={source.id} source={source} onChoose={() => connect(source)} />)
          )}
          <DialogActions>
            <Button variant="outline" onClick={onClose}>
              Cancel
            </Button>
          </DialogActions>
        </div>
      )}

      {step.kind === 'connecting' && (
        <div className="flex flex-col items-center gap-3 py-10">
          <Spinner className="h-8 w-8" label="Connecting" />
          <p className="text-sm text-slate-600 dark:text-slate-400">Connecting to {step.source.name}...</p>
        </div>
      )}

      {step.kind === 'failed' && (
        <div className="flex flex-col items-center gap-4 py-8 text-center">
          <AlertIcon className="h-8 w-8 text-red-500" />
          <p role="alert" className="text-sm text-red-700 dark:text-red-400">
            {CONNECTION_FAILED}
          </p>
          <div className="flex gap-2">
            <Button variant="outline" onClick={() => setStep({ kind: 'sources' })}>
              Back
            </Button>
            <Button onClick={() => connect(step.source)}>Retry Connection</Button>
          </div>
        </div>
      )}

      {step.kind === 'browse' && (
        <div className="space-y-3">
          <SearchField
            id="import-search"
            label="Search files to import"
            value={search}
            onChange={setSearch}
            placeholder="Search files..."
          />
          {path.length > 0 && (
            <nav aria-label="Import folder" className="flex flex-wrap items-center gap-1 text-sm">
              <button type="button" className="text-indigo-600 hover:underline" onClick={() => setPath([])}>
                {step.source.name}
              </button>
              {path.map((p, index) => (
                <span key={p.id} className="flex items-center gap-1">
                  <span aria-hidden="true">&gt;</span>
                  {index === path.length - 1 ? (
                    <span className="font-medium">{p.name}</span>
                  ) : (
                    <button
                      type="button"
                      className="text-indigo-600 hover:underline"
                      onClick={() => setPath((all) => all.slice(0, index + 1))}
                    >
                      {p.name}
                    </button>
                  )}
                </span>
              ))}
            </nav>
          )}
          <div
            className="max-h-80 min-h-40 overflow-y-auto rounded-md border border-slate-200 dark:border-slate-700"
            aria-busy={listing}
          >
            {items === null ? (
              <div className="flex justify-center py-8">
                <Spinner label="Loading files" />
              </div>
            ) : items.length === 0 ? (
              <p className="py-10 text-center text-sm text-slate-600 dark:text-slate-400">No files found</p>
            ) : (
              <ul aria-label="Files to import" className="divide-y divide-slate-100 dark:divide-slate-800">
                {items.map((item) => (
                  <li key={item.id}>
                    {item.type === 'folder' ? (
                      <button
                        type="button"
                        onClick={() => openFolder(item)}
                        className="flex w-full items-center gap-3 px-3 py-2 text-left text-sm hover:bg-slate-50 dark:hover:bg-slate-800"
                        aria-label={`Open folder ${item.name}`}
                      >
                        <span className="w-4" />
                        <ItemIcon item={item} />
                        <span className="flex-1 truncate">{item.name}</span>
                        <span className="text-xs text-slate-500">Folder</span>
                      </button>
                    ) : (
                      <label className="flex cursor-pointer items-center gap-3 px-3 py-2 text-sm hover:bg-slate-50 dark:hover:bg-slate-800">
                        <input
                          type="checkbox"
                          checked={selected.has(item.id)}
                          onChange={() => toggle(item)}
                          className="h-4 w-4 rounded border-slate-300 text-indigo-600"
                        />
                        <ItemIcon item={item} />
                        <span className="flex-1 truncate">{item.name}</span>
                        {item.size !== null && (
                          <span className="text-xs text-slate-500">{formatFileSize(item.size)}</span>
                        )}
                      </label>
                    )}
                  </li>
                ))}
              </ul>
            )}
          </div>
          <DialogActions>
            <span className="mr-auto self-center text-sm text-slate-600 dark:text-slate-400">
              {selected.size} selected
            </span>
            <Button variant="outline" onClick={() => setStep({ kind: 'sources' })}>
              Back
            </Button>
            <Button onClick={() => runImport(step.source)} disabled={selected.size === 0}>
              Import{selected.size > 0 ? ` (${selected.size})` : ''}
            </Button>
          </DialogActions>
        </div>
      )}

      {step.kind === 'conflicts' && prompt && (
        <div>
          <h3 className="mb-2 text-base font-semibold text-slate-900 dark:text-slate-100">
            File already exists{prompt.total > 1 ? ` (${prompt.position} of ${prompt.total})` : ''}
          </h3>
          <ConflictQuestionView
            key={prompt.question.key}
            prompt={prompt}
            where={folderId ? 'this folder' : 'the top level of your files'}
          />
        </div>
      )}

      {step.kind === 'importing' && (
        <div className="space-y-3 py-6">
          <p className="text-sm text-slate-700 dark:text-slate-300">
            Importing {step.job ? `${step.job.done} of ${step.job.total}` : `${selected.size}`} files...
          </p>
          <div
            role="progressbar"
            aria-label="Import progress"
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={step.job && step.job.total > 0 ? Math.round((step.job.done / step.job.total) * 100) : 0}
            className="h-2 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
          >
            <div
              className="h-full bg-indigo-600 transition-all"
              style={{
                width: `${step.job && step.job.total > 0 ? Math.round((step.job.done / step.job.total) * 100) : 5}%`,
              }}
            />
          </div>
          {step.job && step.job.failed.length > 0 && (
            <ul className="text-xs text-red-700 dark:text-red-400">
              {step.job.failed.map((f) => (
                <li key={f.name}>
                  {f.name}: {f.message}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </Dialog>
  );
}

/** What became of each file of a finished job, for the toast (names only where they matter). */
function importResults(job: ImportJob): BatchResult[] {
  const renamed = job.renamed ?? [];
  const replaced = job.replaced ?? [];
  const plain = Math.max(0, job.imported - renamed.length - replaced.length);
  return [
    ...Array.from({ length: plain }, () => ({ kind: 'uploaded' as const, name: '', storedAs: '', replaced: false })),
    ...renamed.map((r) => ({ kind: 'uploaded' as const, name: r.name, storedAs: r.storedAs, replaced: false })),
    ...replaced.map((name) => ({ kind: 'uploaded' as const, name, storedAs: name, replaced: true })),
    ...(job.skipped ?? []).map((name) => ({ kind: 'skipped' as const, name })),
    ...job.failed.map((f) => ({ kind: 'failed' as const, name: f.name })),
  ];
}
