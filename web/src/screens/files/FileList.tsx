import { useEffect } from 'react';
import { graphql, usePaginationFragment } from 'react-relay';
import { Button } from '../../ui/Button.tsx';
import type { FileList_query$key } from './__generated__/FileList_query.graphql';
import { FileRow, type FileRowActions } from './FileRow.tsx';

/** The files of the current folder, a page at a time, in the chosen order. */
export function FileList({
  query,
  actions,
  layout,
  filter,
  onConnection,
  refreshKey,
}: {
  query: FileList_query$key;
  actions: FileRowActions;
  layout: 'list' | 'grid';
  /** A short search (2 characters or fewer) narrows the loaded files by name in the browser. */
  filter: string;
  onConnection: (connectionId: string) => void;
  /** Changes after uploads, so the list is read again from the server. */
  refreshKey: number;
}) {
  const { data, hasNext, loadNext, isLoadingNext, refetch } = usePaginationFragment(
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

  useEffect(() => {
    if (refreshKey > 0) refetch({}, { fetchPolicy: 'network-only' });
  }, [refreshKey, refetch]);

  const needle = filter.trim().toLowerCase();
  const files = data.files.edges
    .map((e) => e?.node)
    .filter((node): node is NonNullable<typeof node> => Boolean(node))
    .filter((node) => !needle || node.name.toLowerCase().includes(needle));

  if (files.length === 0) {
    return (
      <p className="py-12 text-center text-sm text-slate-500 dark:text-slate-400">
        {needle ? 'No files found' : 'No files in this folder'}
      </p>
    );
  }
  return (
    <>
      <ul
        aria-label="Files"
        className={
          layout === 'grid'
            ? 'grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-4'
            : 'divide-y divide-slate-200 dark:divide-slate-700'
        }
      >
        {files.map((file) => (
          <FileRow key={file.id} file={file} actions={actions} layout={layout} />
        ))}
      </ul>
      {hasNext && (
        <div className="flex justify-center pt-4">
          <Button variant="outline" onClick={() => loadNext(60)} disabled={isLoadingNext}>
            {isLoadingNext ? 'Loading...' : 'Load more'}
          </Button>
        </div>
      )}
    </>
  );
}
