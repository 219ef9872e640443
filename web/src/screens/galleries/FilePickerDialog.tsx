import { useEffect, useState } from 'react';
import { graphql, type PreloadedQuery, usePreloadedQuery } from 'react-relay/hooks';
import { formatFileSize } from '../../lib/format.ts';
import { useQueryWhileOpen, WhenLoaded } from '../../relay/queryWhileOpen.tsx';
import { Dialog, DialogButtons } from '../../ui/Dialog.tsx';
import { inputClass } from '../../ui/Field.tsx';
import { serverSearchTerm } from '../files/options.ts';
import type { FilePickerDialogQuery } from './__generated__/FilePickerDialogQuery.graphql';
import { gridUrl } from '../../lib/pictures.ts';

// Recent photos and search results show the same facts (unmasked: the list filters on them).
graphql`
  fragment FilePickerDialog_photo on File {
    id
    name
    mimeType
    size
    objectPath
    metadata
  }
`;

const photosQuery = graphql`
  query FilePickerDialogQuery($search: String!, $searching: Boolean!) {
    recentFiles(first: 200) @skip(if: $searching) {
      edges {
        node {
          ...FilePickerDialog_photo @relay(mask: false)
        }
      }
    }
    searchFiles(query: $search, first: 100) @include(if: $searching) {
      edges {
        node {
          ...FilePickerDialog_photo @relay(mask: false)
        }
      }
    }
  }
`;

function Choices({
  reference,
  term,
  filter,
  selected,
  toggle,
  exclude,
}: {
  reference: PreloadedQuery<FilePickerDialogQuery>;
  term: string | null;
  filter: string;
  selected: Set<string>;
  toggle: (id: string) => void;
  exclude: ReadonlySet<string>;
}) {
  const data = usePreloadedQuery<FilePickerDialogQuery>(photosQuery, reference);
  const needle = filter.trim().toLowerCase();
  const files = (term !== null ? data.searchFiles?.edges : data.recentFiles?.edges)
    ?.map((e) => e.node)
    .filter((f) => f.mimeType.startsWith('image/') && !exclude.has(f.id))
    .filter((f) => term !== null || !needle || f.name.toLowerCase().includes(needle));
  if (!files?.length) {
    return <p className="py-8 text-center text-sm text-slate-500 dark:text-slate-400">No photos found</p>;
  }
  return (
    <ul className="grid max-h-[50vh] grid-cols-3 gap-2 overflow-y-auto sm:grid-cols-4" aria-label="Your photos">
      {files.map((file) => {
        const chosen = selected.has(file.id);
        const thumbnails = (file.metadata as { thumbnails?: { grid?: boolean } } | null)?.thumbnails;
        return (
          <li key={file.id}>
            <label
              className={`relative block cursor-pointer overflow-hidden rounded-md border-2 focus-within:ring-2 focus-within:ring-indigo-500 ${
                chosen ? 'border-indigo-600' : 'border-transparent'
              }`}
            >
              <input
                type="checkbox"
                className="absolute top-1 left-1 h-4 w-4"
                checked={chosen}
                onChange={() => toggle(file.id)}
                aria-label={file.name}
              />
              {thumbnails?.grid ? (
                <img
                  src={gridUrl(file.objectPath)}
                  alt=""
                  loading="lazy"
                  className="aspect-square w-full object-cover"
                />
              ) : (
                <div className="flex aspect-square w-full items-center justify-center bg-slate-100 text-xs text-slate-500 dark:bg-slate-800">
                  {file.name}
                </div>
              )}
              <span className="block truncate px-1 py-0.5 text-xs text-slate-600 dark:text-slate-300">
                {file.name} · {formatFileSize(file.size)}
              </span>
            </label>
          </li>
        );
      })}
    </ul>
  );
}

/** Chooses photos from the file manager to add to the gallery. */
export function FilePickerDialog({
  open,
  onClose,
  onAdd,
  exclude,
}: {
  open: boolean;
  onClose: () => void;
  onAdd: (fileIds: string[]) => Promise<void>;
  exclude: ReadonlySet<string>;
}) {
  const [query, setQuery] = useState('');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [pending, setPending] = useState(false);
  const term = serverSearchTerm(query);
  const reference = useQueryWhileOpen<FilePickerDialogQuery>(
    photosQuery,
    open ? { search: term ?? '', searching: term !== null } : null,
  );
  useEffect(() => {
    if (open) {
      setQuery('');
      setSelected(new Set());
    }
  }, [open]);
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  async function add() {
    setPending(true);
    try {
      await onAdd([...selected]);
      onClose();
    } finally {
      setPending(false);
    }
  }
  return (
    <Dialog
      open={open}
      onClose={() => !pending && onClose()}
      title="Add Photos"
      description="Choose photos from your files."
      size="lg"
    >
      <label htmlFor="picker-search" className="sr-only">
        Search your photos
      </label>
      <input
        id="picker-search"
        type="search"
        className={`${inputClass} mb-3`}
        placeholder="Search your photos..."
        value={query}
        onChange={(e) => setQuery(e.target.value)}
      />
      <WhenLoaded reference={reference}>
        {(loaded) => (
          <Choices
            reference={loaded}
            term={term}
            filter={query}
            selected={selected}
            toggle={toggle}
            exclude={exclude}
          />
        )}
      </WhenLoaded>
      <DialogButtons
        onCancel={onClose}
        onAction={add}
        label={`Add ${selected.size || ''} to Gallery`.replace('  ', ' ')}
        pendingLabel="Adding..."
        pending={pending}
        disabled={selected.size === 0}
      />
    </Dialog>
  );
}
