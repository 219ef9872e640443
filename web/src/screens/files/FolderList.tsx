import { useEffect, useState } from 'react';
import { graphql, useFragment } from 'react-relay/hooks';
import type { FolderList_query$key } from './__generated__/FolderList_query.graphql';
import { dropHighlight, useFileDrop } from './FileActions.tsx';
import {
  type FolderAction,
  FolderActionDialogs,
  FolderButton,
  FolderMenu,
  type FolderRowData,
} from './FolderActions.tsx';

/** One folder of the list; dragged files can be dropped on it. */
function FolderItem({
  folder,
  onOpen,
  onAction,
  onDropFiles,
}: {
  folder: FolderRowData;
  onOpen: (folder: FolderRowData) => void;
  onAction: (kind: FolderAction, folder: FolderRowData) => void;
  onDropFiles?: (folder: FolderRowData) => void;
}) {
  const { over, dropProps } = useFileDrop(onDropFiles && (() => onDropFiles(folder)));
  return (
    <li
      className={`flex items-center gap-1 rounded-md ${over ? dropHighlight : ''}`}
      data-testid="folder-row"
      {...dropProps}
    >
      <FolderButton name={folder.name} onClick={() => onOpen(folder)} />
      <FolderMenu folder={folder} onAction={onAction} />
    </li>
  );
}

/** The folders inside the current folder; choosing one opens it, its menu renames, moves or deletes it. */
export function FolderList({
  query,
  parentId,
  onOpen,
  onConnection,
  onDropFiles,
}: {
  query: FolderList_query$key;
  /** The folder whose inside is listed (null: the top level). */
  parentId: string | null;
  onOpen: (folder: { id: string; name: string }) => void;
  /** Hands out the connection id so that a new folder can be appended to it. */
  onConnection: (connectionId: string) => void;
  /** Files dragged from the file list were dropped on a folder. */
  onDropFiles?: (folder: { id: string; name: string }) => void;
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
              fileCount
              folderCount
            }
          }
        }
      }
    `,
    query,
  );
  const connectionId = data.folders.__id;
  useEffect(() => onConnection(connectionId), [connectionId, onConnection]);
  const [action, setAction] = useState<{ kind: FolderAction; folder: FolderRowData } | null>(null);
  const folders = data.folders.edges.map((e) => e.node).filter(Boolean);
  const dialogs = (
    <FolderActionDialogs
      action={action}
      connectionId={connectionId}
      listParentId={parentId}
      onClose={() => setAction(null)}
    />
  );
  if (folders.length === 0) {
    return (
      <>
        <p className="px-3 py-6 text-center text-sm text-slate-500 dark:text-slate-400">No folders</p>
        {dialogs}
      </>
    );
  }
  return (
    <>
      <ul className="space-y-0.5" aria-label="Folders">
        {folders.map((folder) => (
          <FolderItem
            key={folder.id}
            folder={folder}
            onOpen={onOpen}
            onAction={(kind, f) => setAction({ kind, folder: f })}
            onDropFiles={onDropFiles}
          />
        ))}
      </ul>
      {dialogs}
    </>
  );
}
