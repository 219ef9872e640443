import { MenuItem } from '@headlessui/react';
import { type DragEvent, type ReactNode, useEffect } from 'react';
import { graphql, useFragment } from 'react-relay/hooks';
import { Link } from 'react-router-dom';
import { formatAge, formatFileSize } from '../../lib/format.ts';
import { ActionsMenu, ActionsMenuItem, menuItemClass } from '../../ui/ActionsMenu.tsx';
import { FileIcon } from '../../ui/icons.tsx';
import type { FileRow_file$data, FileRow_file$key } from './__generated__/FileRow_file.graphql';
import { gridImage, gridUrl, hasGrid2x } from '../../lib/pictures.ts';
import { useNow } from '../../lib/now.ts';

export type FileRowData = FileRow_file$data;

export interface FileRowActions {
  onVersions: (file: FileRowData) => void;
  /** Absent where no new version can be uploaded (e.g. search results of other people's files). */
  onUploadVersion?: (file: FileRowData) => void;
  onDelete: (file: FileRowData) => void;
  onRename: (file: FileRowData) => void;
  onMove: (file: FileRowData) => void;
  /** Absent where files cannot be dragged onto a folder (search results). */
  onDragStart?: (file: FileRowData, event: DragEvent) => void;
  /** The address of a file's preview ("Open"); without it, Open shows the file's bytes in a new tab. */
  previewHref?: (fileId: string) => string;
  /** Told the ids of the files listed, in their order (the preview's previous / next). */
  onListed?: (ids: readonly string[]) => void;
}

/** "Open": the preview when the list has one, else the bytes in a new tab. */
function OpenLink({
  file,
  actions,
  className,
  children,
  ...rest
}: {
  file: FileRowData;
  actions: FileRowActions;
  className: string;
  children: ReactNode;
  'aria-label'?: string;
  title?: string;
}) {
  if (actions.previewHref) {
    return (
      <Link to={actions.previewHref(file.id)} className={className} {...rest}>
        {children}
      </Link>
    );
  }
  return (
    <a href={file.objectPath} target="_blank" rel="noreferrer" className={className} {...rest}>
      {children}
    </a>
  );
}

/** A row's checkbox in the file list; absent where files cannot be chosen together. */
export interface FileRowSelection {
  selected: boolean;
  onToggle: (file: FileRowData) => void;
}

function hasThumbnail(file: FileRowData) {
  const thumbnails = (file.metadata as { thumbnails?: { grid?: boolean } } | null)?.thumbnails;
  return file.mimeType.startsWith('image/') && thumbnails?.grid === true;
}

function FileMenu({ file, actions }: { file: FileRowData; actions: FileRowActions }) {
  return (
    <ActionsMenu label={`Actions for ${file.name}`}>
      <MenuItem>
        <OpenLink file={file} actions={actions} className={menuItemClass}>
          Open
        </OpenLink>
      </MenuItem>
      <MenuItem>
        <a href={`${file.objectPath}?download`} download={file.name} className={menuItemClass}>
          Download
        </a>
      </MenuItem>
      <ActionsMenuItem onClick={() => actions.onVersions(file)}>Versions ({file.currentVersion})</ActionsMenuItem>
      {file.viewerCanEdit && actions.onUploadVersion && (
        <ActionsMenuItem onClick={() => actions.onUploadVersion?.(file)}>Upload new version</ActionsMenuItem>
      )}
      {file.viewerCanEdit && <ActionsMenuItem onClick={() => actions.onRename(file)}>Rename</ActionsMenuItem>}
      {file.viewerCanEdit && <ActionsMenuItem onClick={() => actions.onMove(file)}>Move to…</ActionsMenuItem>}
      {file.viewerCanEdit && (
        <ActionsMenuItem onClick={() => actions.onDelete(file)} danger>
          Delete
        </ActionsMenuItem>
      )}
    </ActionsMenu>
  );
}

/** A picture's grid thumbnail; `tile` for the grid layout's cells, which are sharp only at 2x on dense screens. */
function Thumb({ file, className, tile = false }: { file: FileRowData; className: string; tile?: boolean }) {
  return hasThumbnail(file) ? (
    <img
      {...(tile
        ? gridImage({ objectPath: file.objectPath, grid2x: hasGrid2x(file.metadata) })
        : { src: gridUrl(file.objectPath) })}
      alt=""
      loading="lazy"
      className={`${className} object-cover`}
      data-testid="file-thumbnail"
    />
  ) : (
    <div
      className={`${className} flex items-center justify-center bg-slate-100 text-slate-400 dark:bg-slate-800`}
      aria-hidden="true"
    >
      <FileIcon className="h-1/2 max-h-8 w-1/2 max-w-8" />
    </div>
  );
}

function SelectBox({
  file,
  selection,
  className,
}: {
  file: FileRowData;
  selection: FileRowSelection;
  className: string;
}) {
  return (
    <input
      type="checkbox"
      checked={selection.selected}
      onChange={() => selection.onToggle(file)}
      aria-label={`Select ${file.name}`}
      className={`h-4 w-4 shrink-0 cursor-pointer accent-indigo-600 ${className}`}
    />
  );
}

/** The folder a search result lives in, cut short with the whole path on hover. */
function FolderPath({ location }: { location: string | undefined }) {
  if (!location) return null;
  return (
    <p className="truncate text-xs text-slate-500 dark:text-slate-400" title={location}>
      {location}
    </p>
  );
}

/** Files as the rows of a list or the tiles of a grid; `extras` adds what one list shows more. */
export function FileRows<F extends FileRow_file$key & { id: string }>({
  label,
  files,
  actions,
  layout,
  extras,
}: {
  label: string;
  files: readonly F[];
  actions: FileRowActions;
  layout: 'list' | 'grid';
  extras: (file: F) => { selection?: FileRowSelection; location?: string };
}) {
  const ids = files.map((file) => file.id).join(',');
  const { onListed } = actions;
  useEffect(() => onListed?.(ids === '' ? [] : ids.split(',')), [ids, onListed]);
  return (
    <ul
      aria-label={label}
      className={
        layout === 'grid'
          ? 'grid grid-cols-2 gap-3 sm:grid-cols-3 xl:grid-cols-4'
          : 'divide-y divide-slate-200 dark:divide-slate-700'
      }
    >
      {files.map((file) => (
        <FileRow key={file.id} file={file} actions={actions} layout={layout} {...extras(file)} />
      ))}
    </ul>
  );
}

/** One file in the list view: opens in the File Manager's preview. */
export function FileRow({
  file: key,
  actions,
  layout,
  selection,
  location,
}: {
  file: FileRow_file$key;
  actions: FileRowActions;
  layout: 'list' | 'grid';
  selection?: FileRowSelection;
  /** Where the file is ("Root › Scouting › Barns"), for lists that mix folders (search results). */
  location?: string;
}) {
  const now = useNow();
  const file = useFragment(
    graphql`
      fragment FileRow_file on File {
        id
        name
        mimeType
        size
        objectPath
        metadata
        currentVersion
        viewerCanEdit
        createdAt
      }
    `,
    key,
  );
  // Own files can be dragged onto a folder or a breadcrumb (Move to… does the same from the keyboard).
  const drag =
    file.viewerCanEdit && actions.onDragStart
      ? { draggable: true, onDragStart: (event: DragEvent) => actions.onDragStart?.(file, event) }
      : {};
  const chosen = selection?.selected ? 'bg-indigo-50 dark:bg-indigo-950/40' : '';
  // On the chosen rows' tint the usual grey would be too faint to read.
  const meta = selection?.selected ? 'text-slate-600 dark:text-slate-300' : 'text-slate-500 dark:text-slate-400';
  if (layout === 'grid') {
    return (
      <li
        className={`group relative overflow-hidden rounded-lg border ${
          selection?.selected
            ? 'border-indigo-500 bg-indigo-50 dark:border-indigo-400 dark:bg-indigo-950/40'
            : 'border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-900'
        }`}
        data-testid="file-row"
        {...drag}
      >
        {selection && (
          <SelectBox file={file} selection={selection} className="absolute top-2 left-2 z-10 bg-white shadow" />
        )}
        <OpenLink
          file={file}
          actions={actions}
          className="block focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-indigo-500"
          aria-label={`Open ${file.name}`}
        >
          <Thumb file={file} className="aspect-square w-full" tile />
        </OpenLink>
        <div className="flex items-center gap-1 p-2">
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-medium text-slate-900 dark:text-slate-100" title={file.name}>
              {file.name}
            </p>
            <p className={`text-xs ${meta}`}>{formatFileSize(file.size)}</p>
            <FolderPath location={location} />
          </div>
          <FileMenu file={file} actions={actions} />
        </div>
      </li>
    );
  }
  return (
    <li
      className={`flex items-center gap-3 px-3 py-2 hover:bg-slate-50 dark:hover:bg-slate-800/50 ${chosen}`}
      data-testid="file-row"
      {...drag}
    >
      {selection && <SelectBox file={file} selection={selection} className="" />}
      <Thumb file={file} className="h-10 w-10 shrink-0 rounded" />
      <div className="min-w-0 flex-1">
        <OpenLink
          file={file}
          actions={actions}
          className="block truncate text-sm font-medium text-slate-900 hover:underline focus:outline-none focus-visible:underline dark:text-slate-100"
          title={file.name}
        >
          {file.name}
        </OpenLink>
        <p className={`text-xs ${meta}`}>
          {formatFileSize(file.size)} · {formatAge(file.createdAt as string, now)}
          {file.currentVersion > 1 ? ` · v${file.currentVersion}` : ''}
        </p>
        <FolderPath location={location} />
      </div>
      <FileMenu file={file} actions={actions} />
    </li>
  );
}
