import { useEffect } from 'react';
import { graphql, useFragment } from 'react-relay';
import { FolderIcon } from '../../ui/icons.tsx';
import type { FolderList_query$key } from './__generated__/FolderList_query.graphql';

/** The folders inside the current folder; choosing one opens it. */
export function FolderList({
  query,
  onOpen,
  onConnection,
}: {
  query: FolderList_query$key;
  onOpen: (folder: { id: string; name: string }) => void;
  /** Hands out the connection id so that a new folder can be appended to it. */
  onConnection: (connectionId: string) => void;
}) {
  const data = useFragment(
    graphql`
      fragment FolderList_query on Query @argumentDefinitions(parentId: { type: "ID" }) {
        folders(parentId: $parentId, first: 500) @connection(key: "FolderList_folders", filters: ["parentId"]) {
          __id
          edges {
            node {
              id
              name
            }
          }
        }
      }
    `,
    query,
  );
  const connectionId = data.folders.__id;
  useEffect(() => onConnection(connectionId), [connectionId, onConnection]);
  const folders = data.folders.edges.map((e) => e.node).filter(Boolean);
  if (folders.length === 0) {
    return <p className="px-3 py-6 text-center text-sm text-slate-500 dark:text-slate-400">No folders</p>;
  }
  return (
    <ul className="space-y-0.5" aria-label="Folders">
      {folders.map((folder) => (
        <li key={folder.id}>
          <button
            type="button"
            onClick={() => onOpen(folder)}
            className="flex w-full items-center gap-2 rounded-md px-3 py-2 text-left text-sm text-slate-700 hover:bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 dark:text-slate-200 dark:hover:bg-slate-800"
          >
            <FolderIcon className="h-4 w-4 shrink-0 text-amber-500" />
            <span className="truncate">{folder.name}</span>
          </button>
        </li>
      ))}
    </ul>
  );
}
