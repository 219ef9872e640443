import { useCallback, useEffect, useState } from 'react';
import { rawIdOf } from '../../lib/globalId.ts';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { type FileRef, filesCount } from './FileActions.tsx';
import type { FileSelection } from './FileList.tsx';

/** The files chosen in the list, by id; what is chosen belongs to the folder (or search) it was chosen in. */
export function useChosenFiles(folderId: string | null, searchTerm: string | null) {
  const [chosen, setChosen] = useState<ReadonlyMap<string, FileRef>>(new Map());
  const clear = useCallback(() => setChosen(new Map()), []);
  // biome-ignore lint/correctness/useExhaustiveDependencies: folderId and searchTerm are the triggers
  useEffect(clear, [folderId, searchTerm, clear]);
  const choose = (files: readonly FileRef[], on: boolean) =>
    setChosen((current) => {
      const next = new Map(current);
      for (const f of files) {
        if (on) next.set(f.id, { id: f.id, name: f.name, objectPath: f.objectPath });
        else next.delete(f.id);
      }
      return next;
    });
  const selection: FileSelection = {
    chosen,
    toggle: (file) =>
      setChosen((current) => {
        const next = new Map(current);
        if (next.has(file.id)) next.delete(file.id);
        else next.set(file.id, { id: file.id, name: file.name, objectPath: file.objectPath });
        return next;
      }),
    setAll: choose,
  };
  /** `unchoose` drops files that have gone (moved elsewhere) from the choice. */
  return {
    chosen,
    chosenFiles: [...chosen.values()],
    clear,
    selection,
    unchoose: (files: readonly FileRef[]) => choose(files, false),
  };
}

/** Where the chosen files download from: the file itself, or one ZIP the server streams for several. */
export function downloadHref(files: readonly FileRef[]) {
  if (files.length === 1 && files[0]) return `${files[0].objectPath}?download`;
  return `/api/files/archive?ids=${files.map((f) => rawIdOf(f.id)).join(',')}`;
}

/** What can be done with the files chosen in the list; shown while any are chosen. */
export function SelectionToolbar({
  files,
  onMove,
  onAddToGallery,
  onDelete,
  onClear,
}: {
  files: readonly FileRef[];
  onMove: () => void;
  onAddToGallery: () => void;
  onDelete: () => void;
  onClear: () => void;
}) {
  return (
    <section
      aria-label="Selected files"
      className="mb-2 flex flex-wrap items-center gap-2 rounded-md border border-indigo-200 bg-indigo-50 px-3 py-2 dark:border-indigo-900 dark:bg-indigo-950"
    >
      {/* The count is announced by the list's status line, which is there before the toolbar is. */}
      <p className="mr-auto text-sm font-medium text-indigo-900 dark:text-indigo-100">
        {filesCount(files.length)} selected
      </p>
      <Button size="sm" variant="outline" onClick={onMove}>
        Move to…
      </Button>
      <a href={downloadHref(files)} download className={buttonClass('outline', 'sm')}>
        Download
      </a>
      <Button size="sm" variant="outline" onClick={onAddToGallery}>
        Add to gallery
      </Button>
      <Button size="sm" variant="destructive" onClick={onDelete}>
        Delete
      </Button>
      <Button size="sm" variant="ghost" onClick={onClear}>
        Clear selection
      </Button>
    </section>
  );
}
