import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Button } from '../../ui/Button.tsx';
import { toast } from '../../ui/toast.tsx';

/** How long typing must pause before Auto Save saves the notes. */
export const AUTO_SAVE_DELAY_MS = 1000;
export const UNSAVED_NOTES = 'You have unsaved notes. Leave without saving them?';
const FAILED = 'Failed to update gallery. Please try again.';

type Status = 'idle' | 'saving' | 'saved' | 'failed';

/**
 * Warns before the page goes away with unsaved work: closing or reloading the tab (the browser's
 * own prompt) and, when `links` is set, following a link inside the app.
 */
function useLeaveWarning(active: boolean, links: boolean) {
  useEffect(() => {
    if (!active) return;
    const beforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers show the prompt only when returnValue is set.
      event.returnValue = '';
    };
    // The app uses a plain BrowserRouter (no navigation blocking), so in-app links are caught
    // before React Router sees the click.
    const linkClick = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.('a[href]');
      if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey) return;
      if (link.getAttribute('target') === '_blank') return;
      if (!window.confirm(UNSAVED_NOTES)) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    window.addEventListener('beforeunload', beforeUnload);
    if (links) document.addEventListener('click', linkClick, true);
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      document.removeEventListener('click', linkClick, true);
    };
  }, [active, links]);
}

/**
 * A gallery's collaborative notes. With Auto Save (the user's setting) they save a moment after
 * typing stops and a quiet status says so; without it there is a Save Notes button and leaving
 * with unsaved notes asks first.
 */
export function GalleryNotes({
  savedNotes,
  canEdit,
  autoSave,
  save,
}: {
  /** The notes as the server has them. */
  savedNotes: string;
  canEdit: boolean;
  autoSave: boolean;
  /** Stores the notes (null clears them); rejects when they were not stored. */
  save: (notes: string | null) => Promise<void>;
}) {
  const [notes, setNotes] = useState(savedNotes);
  const [status, setStatus] = useState<Status>('idle');
  // What this editor last stored: the server may keep it differently (blank notes become none).
  const [stored, setStored] = useState<string | null>(null);
  const saving = status === 'saving';
  const dirty = canEdit && notes !== savedNotes && notes !== stored;

  // Someone else's edit (or our own save) arrives as new savedNotes: take it, unless the user has
  // typed something of their own since, which must not be overwritten.
  const previous = useRef(savedNotes);
  useEffect(() => {
    setNotes((current) => (current === previous.current ? savedNotes : current));
    previous.current = savedNotes;
  }, [savedNotes]);

  const latest = useRef({ notes, dirty, save });
  latest.current = { notes, dirty, save };
  const inFlight = useRef(false);
  // Auto Save tries a failed text once; typing more tries again.
  const failedText = useRef<string | null>(null);

  async function store(text: string, quiet: boolean) {
    inFlight.current = true;
    setStatus('saving');
    try {
      await latest.current.save(text.trim() ? text : null);
      failedText.current = null;
      setStored(text);
      setStatus('saved');
      if (!quiet) toast({ title: 'Success', description: 'Notes saved.' });
    } catch (error) {
      failedText.current = text;
      setStatus('failed');
      toast({
        title: 'Error',
        description: error instanceof Error && error.message ? error.message : FAILED,
        variant: 'destructive',
      });
    } finally {
      inFlight.current = false;
    }
  }

  // Auto Save: once typing pauses. A save still running is waited for: its answer changes
  // savedNotes, which runs this again for whatever was typed meanwhile.
  // biome-ignore lint/correctness/useExhaustiveDependencies: store reads the latest props through a ref
  useEffect(() => {
    if (!autoSave || !dirty || saving || notes === failedText.current) return;
    const timer = setTimeout(() => void store(notes, true), AUTO_SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [autoSave, dirty, saving, notes]);

  // Leaving the screen inside the app with Auto Save on: what was typed in the last moment is saved too.
  useEffect(
    () => () => {
      if (autoSave && latest.current.dirty && !inFlight.current) {
        const text = latest.current.notes;
        latest.current
          .save(text.trim() ? text : null)
          .catch(() => toast({ title: 'Error', description: FAILED, variant: 'destructive' }));
      }
    },
    [autoSave],
  );

  useLeaveWarning(dirty, !autoSave);

  function submit(event: FormEvent) {
    event.preventDefault();
    if (dirty && !saving) void store(notes, false);
  }

  const autoStatus =
    status === 'saving' ? 'Saving...' : status === 'failed' ? 'Not saved' : status === 'saved' && !dirty ? 'Saved' : '';

  return (
    <form className="space-y-3" onSubmit={submit}>
      <div className="flex items-baseline justify-between gap-3">
        <label htmlFor="gallery-notes" className="block text-sm font-medium text-slate-700 dark:text-slate-300">
          Notes
        </label>
        {canEdit && autoSave && (
          <span role="status" className="text-xs text-slate-500 dark:text-slate-400">
            {autoStatus}
          </span>
        )}
      </div>
      <textarea
        id="gallery-notes"
        rows={8}
        value={notes}
        onChange={(e) => setNotes(e.target.value)}
        readOnly={!canEdit}
        placeholder="Access, parking, power, contacts, best light…"
        className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-900 focus:border-indigo-500 focus:ring-2 focus:ring-indigo-500/30 focus:outline-none dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100"
      />
      {canEdit && !autoSave && (
        <div className="flex items-center gap-3">
          <Button type="submit" disabled={saving || !dirty}>
            {saving ? 'Saving...' : 'Save Notes'}
          </Button>
          {dirty && <span className="text-xs text-slate-500 dark:text-slate-400">Unsaved changes</span>}
        </div>
      )}
    </form>
  );
}
