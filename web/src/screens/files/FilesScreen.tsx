import { type ComponentProps, type DragEvent, Suspense, useCallback, useEffect, useRef, useState } from 'react';
import { graphql } from 'react-relay/hooks';
import { useRevalidator, useSearchParams } from 'react-router-dom';
import { ImportDialog } from '../../imports/ImportDialog.tsx';
import { rawIdOf } from '../../lib/globalId.ts';
import { toastsFor, useMutationWithToasts } from '../../relay/useMutationWithToasts.ts';
import { useRouteQuery } from '../../routing/useRouteQuery.ts';
import { UploadZone } from '../../uploads/UploadZone.tsx';
import { Button } from '../../ui/Button.tsx';
import { ConfirmDialog } from '../../ui/Dialog.tsx';
import { useRefreshStorageUsage } from '../../shell/StorageUsageSlot.tsx';
import { SearchField } from '../../ui/Field.tsx';
import { HardDriveIcon, PlusIcon, UploadIcon } from '../../ui/icons.tsx';
import { lazyDialog } from '../../ui/lazyDialog.tsx';
import { Skeleton } from '../../ui/Skeleton.tsx';
import { toast } from '../../ui/toast.tsx';
import { SelectField } from '../../ui/Select.tsx';
import type { FilesScreenDeleteFileMutation } from './__generated__/FilesScreenDeleteFileMutation.graphql';
import type { FilesScreenDeleteFilesMutation } from './__generated__/FilesScreenDeleteFilesMutation.graphql';
import type { FilesScreenQuery } from './__generated__/FilesScreenQuery.graphql';
import {
  AddToGalleryDialog,
  type Destination,
  FILE_DRAG_TYPE,
  type FileRef,
  filesCount,
  MoveFilesDialog,
  movedText,
  RenameFileDialog,
  useMoveFiles,
} from './FileActions.tsx';
import { Breadcrumbs } from './Breadcrumbs.tsx';
import { FileList, fileListConnection } from './FileList.tsx';
import type { FileRowData } from './FileRow.tsx';
import { FileSearchResults } from './FileSearchResults.tsx';
import { FileVersionsDialog } from './FileVersionsDialog.tsx';
import type { FilePreview as Preview } from './FilePreview.tsx';
import { FolderList } from './FolderList.tsx';
import { NewFolderDialog } from './NewFolderDialog.tsx';
import { useNewVersionUpload } from './NewVersionUpload.tsx';
import { SelectionToolbar, useChosenFiles } from './SelectionToolbar.tsx';
import { FILE_SORTS, type FileSort, fileSortFrom, serverSearchTerm } from './options.ts';

// The preview's code (viewers, details) loads when a file is first opened.
const FilePreview = lazyDialog(
  () => import('./FilePreview.tsx').then((m) => m.FilePreview),
  (props: ComponentProps<typeof Preview>) => props.fileId !== null,
);

function FilesContent({
  folderId,
  sort,
  searchTerm,
  shortFilter,
  layout,
  onNavigate,
  newFolderOpen,
  closeNewFolder,
  preview,
}: {
  folderId: string | null;
  sort: FileSort;
  searchTerm: string | null;
  shortFilter: string;
  layout: 'list' | 'grid';
  onNavigate: (folderId: string | null) => void;
  newFolderOpen: boolean;
  closeNewFolder: () => void;
  /** The file previewed (?preview=), its address, and how to show another or close it. */
  preview: { id: string | null; href: (fileId: string) => string; show: (fileId: string | null) => void };
}) {
  const { data } = useRouteQuery<FilesScreenQuery>(
    graphql`
      query FilesScreenQuery(
        $folderId: ID
        $currentFolderId: ID!
        $inFolder: Boolean!
        $sort: FileSort
        $search: String!
        $searching: Boolean!
      ) @preloadable {
        ...FolderList_query @arguments(parentId: $folderId)
        ...FileList_query @arguments(folderId: $folderId, sort: $sort)
        ...FileSearchResults_query @arguments(search: $search) @include(if: $searching) @alias(as: "searchResults")
        currentFolder: node(id: $currentFolderId) @include(if: $inFolder) {
          ... on Folder {
            id
            name
            parent {
              id
              name
              parent {
                id
                name
                parent {
                  id
                  name
                }
              }
            }
          }
        }
      }
    `,
  );

  const [fileConnection, setFileConnection] = useState<string | null>(null);
  const [versionsOf, setVersionsOf] = useState<FileRowData | null>(null);
  const [deleting, setDeleting] = useState<FileRowData | null>(null);
  const [renaming, setRenaming] = useState<FileRef | null>(null);
  const [moving, setMoving] = useState<{ files: FileRef[]; fromSelection: boolean } | null>(null);
  const [addingToGallery, setAddingToGallery] = useState(false);
  const [deletingChosen, setDeletingChosen] = useState(false);
  const { chosen, chosenFiles, clear: clearChosen, selection, unchoose } = useChosenFiles(folderId, searchTerm);

  const [commitDelete, deletePending] = useMutationWithToasts<FilesScreenDeleteFileMutation>(
    graphql`
    mutation FilesScreenDeleteFileMutation($id: ID!, $connections: [ID!]!) {
      deleteFile(id: $id) {
        __typename
        ... on MutationDeleteFileSuccess {
          data @deleteEdge(connections: $connections)
        }
        ... on Error {
          message
        }
      }
    }
  `,
    {
      outcome: (r) => r.deleteFile,
      ...toastsFor('delete', 'File'),
    },
  );

  const [commitDeleteMany, deleteManyPending] = useMutationWithToasts<FilesScreenDeleteFilesMutation>(
    graphql`
    mutation FilesScreenDeleteFilesMutation($ids: [ID!]!, $connections: [ID!]!) {
      deleteFiles(ids: $ids) {
        __typename
        ... on MutationDeleteFilesSuccess {
          data @deleteEdge(connections: $connections)
        }
        ... on Error {
          message
        }
      }
    }
  `,
    {
      outcome: (r) => r.deleteFiles,
      failure: 'Failed to delete files. Please try again.',
      serverMessage: true,
    },
  );

  const refreshStorage = useRefreshStorageUsage();
  const [folderConnection, setFolderConnection] = useState<string | null>(null);
  const onFolderConnection = useCallback((id: string) => setFolderConnection(id), []);

  function confirmDelete() {
    if (!deleting) return;
    commitDelete({
      variables: { id: deleting.id, connections: fileConnection ? [fileConnection] : [] },
      onSuccess: () => {
        refreshStorage();
        setDeleting(null);
      },
    });
  }

  function confirmDeleteChosen() {
    const count = chosenFiles.length;
    commitDeleteMany({
      variables: { ids: chosenFiles.map((f) => f.id), connections: fileConnection ? [fileConnection] : [] },
      success: { title: 'Success', description: `${filesCount(count)} deleted.` },
      onSuccess: () => {
        refreshStorage();
        setDeletingChosen(false);
        clearChosen();
      },
    });
  }

  // A drag carries the chosen files when it starts on one of them, else just the dragged one.
  const dragged = useRef<FileRef[]>([]);
  function startDrag(file: FileRowData, event: DragEvent) {
    dragged.current = chosen.has(file.id) ? chosenFiles : [file];
    event.dataTransfer.effectAllowed = 'move';
    event.dataTransfer.setData(FILE_DRAG_TYPE, dragged.current.map((f) => f.id).join(','));
  }
  const { move } = useMoveFiles(fileConnection, folderId);
  async function dropFiles(to: Destination) {
    const files = dragged.current;
    dragged.current = [];
    if (files.length === 0 || to.id === folderId) return;
    const refusal = await move(files, to);
    if (refusal) {
      toast({ title: 'Error', description: refusal, variant: 'destructive' });
      return;
    }
    toast({ title: 'Success', description: movedText(files, to) });
    unchoose(files);
  }

  const newVersion = useNewVersionUpload();
  // The files listed, in their order: the preview's previous / next.
  const [listed, setListed] = useState<readonly string[]>([]);
  const onListed = useCallback(
    (ids: readonly string[]) => setListed((current) => (current.join() === ids.join() ? current : ids)),
    [],
  );
  const actions = {
    previewHref: preview.href,
    onListed,
    onVersions: setVersionsOf,
    onDelete: setDeleting,
    onUploadVersion: newVersion.choose,
    onRename: setRenaming,
    onMove: (file: FileRef) => setMoving({ files: [file], fromSelection: false }),
  };
  const path: { id: string; name: string }[] = [];
  for (
    let folder = data.currentFolder;
    folder?.id && folder.name;
    folder = (folder as { parent?: typeof folder }).parent
  ) {
    path.unshift({ id: folder.id, name: folder.name });
  }
  const onConnection = useCallback((id: string) => setFileConnection(id), []);

  return (
    <>
      <Breadcrumbs path={path} onNavigate={onNavigate} onDropFiles={searchTerm === null ? dropFiles : undefined} />
      <div className={searchTerm === null ? 'grid grid-cols-1 gap-6 lg:grid-cols-[16rem_minmax(0,1fr)]' : ''}>
        {searchTerm === null && (
          <aside
            className="rounded-lg border border-slate-200 bg-white p-2 dark:border-slate-700 dark:bg-slate-900"
            aria-label="Folder list"
          >
            <h2 className="px-3 py-2 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:text-slate-400">
              Folders
            </h2>
            <FolderList
              query={data}
              parentId={folderId}
              onOpen={(folder) => onNavigate(folder.id)}
              onConnection={onFolderConnection}
              onDropFiles={dropFiles}
            />
          </aside>
        )}
        <section
          className="min-w-0 rounded-lg border border-slate-200 bg-white p-2 dark:border-slate-700 dark:bg-slate-900"
          aria-label="File list"
        >
          {newVersion.panel}
          <p role="status" className="sr-only">
            {chosen.size > 0 ? `${filesCount(chosen.size)} selected` : ''}
          </p>
          {chosen.size > 0 && (
            <SelectionToolbar
              files={chosenFiles}
              onMove={() => setMoving({ files: chosenFiles, fromSelection: true })}
              onAddToGallery={() => setAddingToGallery(true)}
              onDelete={() => setDeletingChosen(true)}
              onClear={clearChosen}
            />
          )}
          {searchTerm === null || !data.searchResults ? (
            <FileList
              query={data}
              actions={{ ...actions, onDragStart: startDrag }}
              selection={selection}
              layout={layout}
              filter={shortFilter}
              onConnection={onConnection}
            />
          ) : (
            <FileSearchResults
              query={data.searchResults}
              term={searchTerm}
              sort={sort}
              actions={actions}
              layout={layout}
              onOpenFolder={onNavigate}
            />
          )}
        </section>
      </div>
      <FilePreview fileId={preview.id} siblings={listed} onShow={preview.show} onClose={() => preview.show(null)} />
      <NewFolderDialog
        open={newFolderOpen}
        onClose={closeNewFolder}
        parentId={folderId}
        connectionId={folderConnection}
      />
      <FileVersionsDialog file={versionsOf} onClose={() => setVersionsOf(null)} />
      <RenameFileDialog file={renaming} onClose={() => setRenaming(null)} />
      <MoveFilesDialog
        files={moving?.files ?? null}
        fromFolderId={searchTerm === null ? folderId : undefined}
        connectionId={searchTerm === null ? fileConnection : null}
        onClose={() => setMoving(null)}
        onMoved={() => moving?.fromSelection && clearChosen()}
      />
      <AddToGalleryDialog
        files={addingToGallery ? chosenFiles : null}
        onClose={() => setAddingToGallery(false)}
        onAdded={clearChosen}
      />
      <ConfirmDialog
        open={deletingChosen}
        onClose={() => setDeletingChosen(false)}
        onConfirm={confirmDeleteChosen}
        title="Delete Files"
        message={`Delete ${filesCount(chosenFiles.length)}? This action cannot be undone.`}
        pending={deleteManyPending}
      />
      <ConfirmDialog
        open={deleting !== null}
        onClose={() => setDeleting(null)}
        onConfirm={confirmDelete}
        title="Delete File"
        message="Are you sure you want to delete this file? This action cannot be undone."
        pending={deletePending}
      />
    </>
  );
}

function FilesSkeleton() {
  return (
    <div className="grid grid-cols-1 gap-6 lg:grid-cols-[16rem_minmax(0,1fr)]" aria-busy="true">
      <Skeleton className="h-48 w-full" />
      <div className="space-y-2">
        {[0, 1, 2, 3, 4].map((i) => (
          <Skeleton key={i} className="h-12 w-full" />
        ))}
      </div>
    </div>
  );
}

export default function FilesScreen() {
  const [params, setParams] = useSearchParams();
  const folderId = params.get('folder');
  const sort = fileSortFrom(params.get('sort'));
  const urlSearch = params.get('search') ?? '';
  const [search, setSearch] = useState(urlSearch);
  const [layout, setLayout] = useState<'list' | 'grid'>('list');
  // New files from an import: the route reads the folder again (uploads join its list in the store).
  const { revalidate } = useRevalidator();
  const [newFolderOpen, setNewFolderOpen] = useState(false);
  const [importOpen, setImportOpen] = useState(false);
  const showUpload = params.get('upload') === 'true';

  // The header search navigates here with ?search=; follow it when it changes.
  useEffect(() => setSearch(urlSearch), [urlSearch]);

  const update = useCallback(
    (change: (next: URLSearchParams) => void, replace = false) =>
      setParams(
        (current) => {
          const next = new URLSearchParams(current);
          change(next);
          return next;
        },
        { replace },
      ),
    [setParams],
  );

  // Typing settles into the address after a pause; the server search starts from there.
  useEffect(() => {
    const timer = setTimeout(() => {
      if (search.trim() === urlSearch.trim()) return;
      update((next) => (search.trim() ? next.set('search', search.trim()) : next.delete('search')), true);
    }, 300);
    return () => clearTimeout(timer);
  }, [search, urlSearch, update]);

  const searchTerm = serverSearchTerm(urlSearch);
  const navigate = (id: string | null) =>
    update((next) => {
      if (id) next.set('folder', id);
      else next.delete('folder');
      next.delete('search');
      next.delete('preview');
    });
  // The preview has an address (a reload keeps it); previous / next replace it, closing goes back to the list.
  const preview = {
    id: params.get('preview'),
    href: (fileId: string) => {
      const next = new URLSearchParams(params);
      next.set('preview', fileId);
      return `?${next}`;
    },
    show: (fileId: string | null) =>
      update((next) => (fileId ? next.set('preview', fileId) : next.delete('preview')), fileId !== null),
  };

  return (
    <div className="space-y-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div>
          <h1 className="text-2xl font-bold text-slate-900 dark:text-slate-100">File Manager</h1>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">Organize and manage your files and folders</p>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button variant="outline" onClick={() => setImportOpen(true)}>
            <HardDriveIcon className="h-4 w-4" />
            Import
          </Button>
          <Button variant="outline" onClick={() => setNewFolderOpen(true)}>
            <PlusIcon className="h-4 w-4" />
            New Folder
          </Button>
          <Button
            onClick={() => update((next) => (showUpload ? next.delete('upload') : next.set('upload', 'true')), true)}
            aria-expanded={showUpload}
          >
            <UploadIcon className="h-4 w-4" />
            {showUpload ? 'Hide Upload' : 'Upload Files'}
          </Button>
        </div>
      </div>

      <ImportDialog
        open={importOpen}
        onClose={() => setImportOpen(false)}
        folderId={folderId ? rawIdOf(folderId) : null}
        onImported={(job) => job.imported > 0 && revalidate()}
      />

      {showUpload && (
        <UploadZone
          className="rounded-lg border border-slate-200 bg-white p-4 dark:border-slate-700 dark:bg-slate-900"
          folderId={folderId ? rawIdOf(folderId) : null}
          connections={[fileListConnection(folderId, sort)]}
        />
      )}

      <div className="flex flex-col gap-3 sm:flex-row">
        <SearchField
          id="file-search"
          label="Search files"
          value={search}
          onChange={setSearch}
          placeholder="Search files..."
          className="flex-1"
        />
        <div className="sm:w-56">
          <SelectField
            label="Sort files by"
            hideLabel
            value={sort}
            onChange={(value) =>
              update((next) => (value === 'recent' ? next.delete('sort') : next.set('sort', value)), true)
            }
            options={FILE_SORTS}
          />
        </div>
        <fieldset className="flex rounded-md border border-slate-300 dark:border-slate-700">
          <legend className="sr-only">Layout</legend>
          {(['list', 'grid'] as const).map((value) => (
            <button
              key={value}
              type="button"
              aria-pressed={layout === value}
              onClick={() => setLayout(value)}
              className={`px-3 text-sm capitalize focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 ${
                layout === value
                  ? 'bg-slate-100 font-medium text-slate-900 dark:bg-slate-800 dark:text-slate-100'
                  : 'text-slate-600 dark:text-slate-400'
              }`}
            >
              {value}
            </button>
          ))}
        </fieldset>
      </div>

      <Suspense fallback={<FilesSkeleton />}>
        <FilesContent
          folderId={folderId}
          sort={sort}
          searchTerm={searchTerm}
          shortFilter={searchTerm === null ? search : ''}
          layout={layout}
          onNavigate={navigate}
          newFolderOpen={newFolderOpen}
          closeNewFolder={() => setNewFolderOpen(false)}
          preview={preview}
        />
      </Suspense>
    </div>
  );
}
