import { type DragEvent, useEffect, useState } from 'react';
import { ConnectionHandler, graphql, type PreloadedQuery, useMutation, usePreloadedQuery } from 'react-relay/hooks';
import { useQueryWhileOpen, WhenLoaded } from '../../relay/queryWhileOpen.tsx';
import { countOf } from '../../lib/format.ts';
import { Dialog, DialogButtons } from '../../ui/Dialog.tsx';
import { toast } from '../../ui/toast.tsx';
import type { FileActionsAddToGalleryMutation } from './__generated__/FileActionsAddToGalleryMutation.graphql';
import type { FileActionsGalleriesQuery } from './__generated__/FileActionsGalleriesQuery.graphql';
import type { FileActionsMoveMutation } from './__generated__/FileActionsMoveMutation.graphql';
import type { FileActionsRenameMutation } from './__generated__/FileActionsRenameMutation.graphql';
import { FolderPicker, FormMessage, RenameDialog } from './FolderActions.tsx';

/** A file as the selection, the dialogs and a drag know it. */
export interface FileRef {
  id: string;
  name: string;
  objectPath: string;
}

/** A place files can be moved to: a folder, or the top level (id null, shown as Root). */
export interface Destination {
  id: string | null;
  name: string;
}

export const filesCount = (n: number) => countOf(n, 'file');

/**
 * Moves files into a folder. The list the files were in loses them (unless they stay where they
 * are), and the destination folder's count is read back from the answer.
 */
export function useMoveFiles(connectionId: string | null, fromFolderId: string | null) {
  const [commit, pending] = useMutation<FileActionsMoveMutation>(graphql`
    mutation FileActionsMoveMutation($ids: [ID!]!, $folderId: ID) {
      moveFiles(ids: $ids, folderId: $folderId) {
        ... on MutationMoveFilesSuccess {
          data {
            id
            folder {
              id
              fileCount
            }
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);
  /** Resolves to the API's refusal in its own words, or null once moved. */
  const move = (files: readonly FileRef[], to: Destination) =>
    new Promise<string | null>((resolve) => {
      commit({
        variables: { ids: files.map((f) => f.id), folderId: to.id },
        updater: (store, response) => {
          const answer = response?.moveFiles;
          if (!answer || !('data' in answer) || !answer.data || !connectionId || to.id === fromFolderId) return;
          const connection = store.get(connectionId);
          if (!connection) return;
          for (const file of files) ConnectionHandler.deleteNode(connection, file.id);
        },
        onCompleted: (result) => {
          const answer = result.moveFiles as { message?: string };
          resolve(answer.message ?? null);
        },
        onError: () => resolve('Failed to move files. Please try again.'),
      });
    });
  return { move, pending };
}

export const movedText = (files: readonly FileRef[], to: Destination) =>
  `${files.length === 1 ? `"${files[0]?.name}"` : filesCount(files.length)} moved to ${to.name}.`;

// Drags carry this type, so folders and breadcrumbs take file drags and nothing else.
export const FILE_DRAG_TYPE = 'application/x-scoutbase-files';

/** Makes an element a drop target for dragged files; `over` says whether files hover above it now. */
export function useFileDrop(onDrop: (() => void) | undefined) {
  const [over, setOver] = useState(false);
  const carriesFiles = (event: DragEvent) => event.dataTransfer.types.includes(FILE_DRAG_TYPE);
  if (!onDrop) return { over: false, dropProps: {} };
  return {
    over,
    dropProps: {
      onDragOver: (event: DragEvent) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        event.dataTransfer.dropEffect = 'move';
        setOver(true);
      },
      onDragLeave: () => setOver(false),
      onDrop: (event: DragEvent) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        setOver(false);
        onDrop();
      },
    },
  };
}

export const dropHighlight = 'bg-indigo-50 ring-2 ring-indigo-500 dark:bg-indigo-950/60';

export function RenameFileDialog({ file, onClose }: { file: FileRef | null; onClose: () => void }) {
  const [commit, pending] = useMutation<FileActionsRenameMutation>(graphql`
    mutation FileActionsRenameMutation($id: ID!, $name: String!) {
      updateFile(id: $id, name: $name) {
        ... on MutationUpdateFileSuccess {
          data {
            id
            name
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);
  return (
    <RenameDialog
      target={file}
      kind="File"
      pending={pending}
      rename={(id, name, done) =>
        commit({
          variables: { id, name },
          onCompleted: (result) => done.settle(result.updateFile),
          onError: done.onError,
        })
      }
      onClose={onClose}
    />
  );
}

/** 'Move to…' for one file or a selection: the keyboard's way to do what dragging onto a folder does. */
export function MoveFilesDialog({
  files,
  fromFolderId,
  connectionId,
  onClose,
  onMoved,
}: {
  files: readonly FileRef[] | null;
  /** The folder the files are in now (null: the top level); undefined when they may be anywhere (search). */
  fromFolderId: string | null | undefined;
  connectionId: string | null;
  onClose: () => void;
  onMoved?: () => void;
}) {
  const [trail, setTrail] = useState<{ id: string; name: string }[]>([]);
  const [error, setError] = useState<string | null>(null);
  const { move, pending } = useMoveFiles(connectionId, fromFolderId ?? null);
  useEffect(() => {
    if (!files) return;
    setTrail([]);
    setError(null);
  }, [files]);

  const destination: Destination = trail.at(-1) ?? { id: null, name: 'Root' };
  const alreadyThere = fromFolderId !== undefined && destination.id === fromFolderId;

  async function submit() {
    if (!files) return;
    const refusal = await move(files, destination);
    if (refusal) {
      setError(refusal);
      return;
    }
    toast({ title: 'Success', description: movedText(files, destination) });
    onMoved?.();
    onClose();
  }

  const what = files?.length === 1 ? `"${files[0]?.name}"` : filesCount(files?.length ?? 0);
  return (
    <Dialog
      open={files !== null}
      onClose={() => !pending && onClose()}
      title={files?.length === 1 ? 'Move File' : 'Move Files'}
      description={files ? `Choose where to move ${what}.` : undefined}
      size="sm"
    >
      <div className="space-y-3">
        {files && (
          <FolderPicker
            trail={trail}
            onTrail={(next) => {
              setTrail(next);
              setError(null);
            }}
          />
        )}
        {alreadyThere && (
          <p className="text-sm text-slate-500 dark:text-slate-400">
            {files?.length === 1 ? 'The file is' : 'The files are'} already in {destination.name}.
          </p>
        )}
        <FormMessage message={error} />
      </div>
      <DialogButtons
        onCancel={onClose}
        onAction={submit}
        label={`Move to ${destination.name}`}
        pendingLabel="Moving..."
        pending={pending}
        disabled={alreadyThere}
      />
    </Dialog>
  );
}

const galleriesQuery = graphql`
  query FileActionsGalleriesQuery {
    galleries(first: 200, sort: name) {
      edges {
        node {
          id
          name
          photoCount
          viewerAccess
        }
      }
    }
  }
`;

function GalleryChoices({
  reference,
  chosen,
  onChoose,
}: {
  reference: PreloadedQuery<FileActionsGalleriesQuery>;
  chosen: string | null;
  onChoose: (id: string) => void;
}) {
  const data = usePreloadedQuery<FileActionsGalleriesQuery>(galleriesQuery, reference);
  // Only galleries the viewer may add to are offered.
  const galleries = data.galleries.edges.map((e) => e.node).filter((g) => g.viewerAccess !== 'read');
  if (galleries.length === 0) {
    return (
      <p className="py-6 text-center text-sm text-slate-500 dark:text-slate-400">
        You have no galleries you can add photos to. Create one on the Galleries page.
      </p>
    );
  }
  return (
    <fieldset className="min-w-0">
      <legend className="sr-only">Gallery</legend>
      <ul className="max-h-64 space-y-0.5 overflow-y-auto">
        {galleries.map((g) => (
          <li key={g.id}>
            <label className="flex cursor-pointer items-center gap-3 rounded-md px-3 py-2 text-sm text-slate-700 hover:bg-slate-100 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500 dark:text-slate-200 dark:hover:bg-slate-800">
              <input
                type="radio"
                name="gallery"
                value={g.id}
                checked={chosen === g.id}
                onChange={() => onChoose(g.id)}
                className="h-4 w-4 accent-indigo-600"
              />
              <span className="min-w-0 flex-1 truncate">{g.name}</span>
              <span className="shrink-0 text-xs text-slate-600 dark:text-slate-400">
                {countOf(g.photoCount, 'photo')}
              </span>
            </label>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/** Adds the chosen files to one gallery the viewer may edit. */
export function AddToGalleryDialog({
  files,
  onClose,
  onAdded,
}: {
  files: readonly FileRef[] | null;
  onClose: () => void;
  onAdded?: () => void;
}) {
  const galleries = useQueryWhileOpen<FileActionsGalleriesQuery>(galleriesQuery, files && {});
  const [chosen, setChosen] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [commit, pending] = useMutation<FileActionsAddToGalleryMutation>(graphql`
    mutation FileActionsAddToGalleryMutation($galleryId: ID!, $fileIds: [ID!]!) {
      addFilesToGallery(galleryId: $galleryId, fileIds: $fileIds) {
        ... on MutationAddFilesToGallerySuccess {
          data {
            id
            name
            photoCount
          }
        }
        ... on Error {
          message
        }
      }
    }
  `);
  useEffect(() => {
    if (!files) return;
    setChosen(null);
    setError(null);
  }, [files]);

  function add() {
    if (!files) return;
    if (!chosen) {
      setError('Choose a gallery.');
      return;
    }
    commit({
      variables: { galleryId: chosen, fileIds: files.map((f) => f.id) },
      onCompleted: (result) => {
        const answer = result.addFilesToGallery as { message?: string; data?: { name: string } };
        if (answer.message || !answer.data) {
          setError(answer.message ?? 'Failed to add files. Please try again.');
          return;
        }
        toast({ title: 'Success', description: `${filesCount(files.length)} added to ${answer.data.name}.` });
        onAdded?.();
        onClose();
      },
      onError: () => setError('Failed to add files. Please try again.'),
    });
  }

  return (
    <Dialog
      open={files !== null}
      onClose={() => !pending && onClose()}
      title="Add to Gallery"
      description={files ? `Choose a gallery for ${filesCount(files.length)}.` : undefined}
      size="sm"
    >
      <div className="space-y-3">
        {files && (
          <WhenLoaded reference={galleries}>
            {(loaded) => (
              <GalleryChoices
                reference={loaded}
                chosen={chosen}
                onChoose={(id) => {
                  setChosen(id);
                  setError(null);
                }}
              />
            )}
          </WhenLoaded>
        )}
        <FormMessage message={error} />
      </div>
      <DialogButtons
        onCancel={onClose}
        onAction={add}
        label="Add to Gallery"
        pendingLabel="Adding..."
        pending={pending}
      />
    </Dialog>
  );
}
