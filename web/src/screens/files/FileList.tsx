import { useEffect, useRef } from 'react';
import { ConnectionHandler, graphql, usePaginationFragment } from 'react-relay/hooks';
import type { FileList_query$key } from './__generated__/FileList_query.graphql';
import type { FileRef } from './FileActions.tsx';
import { type FileRowActions, FileRows } from './FileRow.tsx';
import { type FileSort, fileSortArgument, searchHint } from './options.ts';
import { LoadMore } from '../../ui/LoadMore.tsx';

/** The files chosen with the rows' checkboxes. */
export interface FileSelection {
  chosen: ReadonlyMap<string, FileRef>;
  toggle: (file: FileRef) => void;
  /** Chooses all of `files` (on) or none of them. */
  setAll: (files: FileRef[], on: boolean) => void;
}

function SelectAll({ files, selection }: { files: FileRef[]; selection: FileSelection }) {
  const box = useRef<HTMLInputElement>(null);
  const count = files.filter((f) => selection.chosen.has(f.id)).length;
  const all = count === files.length;
  useEffect(() => {
    if (box.current) box.current.indeterminate = count > 0 && !all;
  }, [count, all]);
  return (
    <label className="flex w-fit cursor-pointer items-center gap-3 px-3 py-2 text-sm text-slate-600 dark:text-slate-400">
      <input
        ref={box}
        type="checkbox"
        checked={all}
        onChange={() => selection.setAll(files, !all)}
        className="h-4 w-4 cursor-pointer accent-indigo-600"
      />
      Select all files
    </label>
  );
}

/** The files of the current folder, a page at a time, in the chosen order. */
/** The store's id of a folder's file list (null: the top level) in one order; new files join it. */
export function fileListConnection(folderId: string | null, sort: FileSort): string {
  return ConnectionHandler.getConnectionID('client:root', 'FileList_files', { folderId, sort: fileSortArgument(sort) });
}

export function FileList({
  query,
  actions,
  layout,
  filter,
  onConnection,
  selection,
}: {
  query: FileList_query$key;
  actions: FileRowActions;
  layout: 'list' | 'grid';
  /** A short search (2 characters or fewer) narrows the loaded files by name in the browser. */
  filter: string;
  onConnection: (connectionId: string) => void;
  selection: FileSelection;
}) {
  const { data, ...page } = usePaginationFragment(
    graphql`
      fragment FileList_query on Query
      @refetchable(queryName: "FileListPaginationQuery")
      @argumentDefinitions(
        folderId: { type: "ID" }
        sort: { type: "FileSort" }
        count: { type: "Int", defaultValue: 60 }
        cursor: { type: "String" }
      ) {
        files(folderId: $folderId, sort: $sort, first: $count, after: $cursor)
          @connection(key: "FileList_files", filters: ["folderId", "sort"]) {
          __id
          edges {
            node {
              id
              name
              objectPath
              ...FileRow_file
            }
          }
        }
      }
    `,
    query,
  );

  const connectionId = data.files.__id;
  useEffect(() => onConnection(connectionId), [connectionId, onConnection]);

  const needle = filter.trim().toLowerCase();
  const files = data.files.edges
    .map((e) => e?.node)
    .filter((node): node is NonNullable<typeof node> => Boolean(node))
    .filter((node) => !needle || node.name.toLowerCase().includes(needle));

  // Under 3 characters only this folder is narrowed: say what it takes to search them all.
  const hint = searchHint(filter);
  const hintLine = hint && (
    <p role="status" className="px-3 py-2 text-center text-sm text-slate-600 dark:text-slate-400">
      {hint}
    </p>
  );
  if (files.length === 0) {
    return (
      <div className="py-10">
        <p className="text-center text-sm text-slate-500 dark:text-slate-400">
          {needle ? 'No files found' : 'No files in this folder'}
        </p>
        {hintLine}
      </div>
    );
  }
  return (
    <>
      {hintLine}
      <SelectAll files={files} selection={selection} />
      <FileRows
        label="Files"
        files={files}
        actions={actions}
        layout={layout}
        extras={(file) => ({ selection: { selected: selection.chosen.has(file.id), onToggle: selection.toggle } })}
      />
      <LoadMore list={page} count={60} className="pt-4" />
    </>
  );
}
