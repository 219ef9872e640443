import { MenuItem } from '@headlessui/react';
import { graphql, useFragment } from 'react-relay';
import { formatAge, formatFileSize } from '../../lib/format.ts';
import { ActionsMenu, dangerMenuItemClass, menuItemClass } from '../../ui/ActionsMenu.tsx';
import { FileIcon } from '../../ui/icons.tsx';
import type { FileRow_file$data, FileRow_file$key } from './__generated__/FileRow_file.graphql';

export type FileRowData = FileRow_file$data;

export interface FileRowActions {
  onVersions: (file: FileRowData) => void;
  /** Absent where no new version can be uploaded (e.g. search results of other people's files). */
  onUploadVersion?: (file: FileRowData) => void;
  onDelete: (file: FileRowData) => void;
}

function hasThumbnail(file: FileRowData) {
  const thumbnails = (file.metadata as { thumbnails?: { grid?: boolean } } | null)?.thumbnails;
  return file.mimeType.startsWith('image/') && thumbnails?.grid === true;
}

function FileMenu({ file, actions }: { file: FileRowData; actions: FileRowActions }) {
  return (
    <ActionsMenu label={`Actions for ${file.name}`}>
      <MenuItem>
        <a href={file.objectPath} target="_blank" rel="noreferrer" className={menuItemClass}>
          Open
        </a>
      </MenuItem>
      <MenuItem>
        <a href={file.objectPath} download={file.name} className={menuItemClass}>
          Download
        </a>
      </MenuItem>
      <MenuItem>
        <button type="button" onClick={() => actions.onVersions(file)} className={menuItemClass}>
          Versions ({file.currentVersion})
        </button>
      </MenuItem>
      {file.viewerCanEdit && actions.onUploadVersion && (
        <MenuItem>
          <button type="button" onClick={() => actions.onUploadVersion?.(file)} className={menuItemClass}>
            Upload new version
          </button>
        </MenuItem>
      )}
      {file.viewerCanEdit && (
        <MenuItem>
          <button type="button" onClick={() => actions.onDelete(file)} className={dangerMenuItemClass}>
            Delete
          </button>
        </MenuItem>
      )}
    </ActionsMenu>
  );
}

function Thumb({ file, className }: { file: FileRowData; className: string }) {
  return hasThumbnail(file) ? (
    <img
      src={`${file.objectPath}?variant=grid`}
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

/** One file in the list view: opens in a new tab from its stored object path. */
export function FileRow({
  file: key,
  actions,
  layout,
}: {
  file: FileRow_file$key;
  actions: FileRowActions;
  layout: 'list' | 'grid';
}) {
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
  if (layout === 'grid') {
    return (
      <li
        className="group relative overflow-hidden rounded-lg border border-slate-200 bg-white dark:border-slate-700 dark:bg-slate-900"
        data-testid="file-row"
      >
        <a
          href={file.objectPath}
          target="_blank"
          rel="noreferrer"
          className="block focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-indigo-500"
          aria-label={`Open ${file.name}`}
        >
          <Thumb file={file} className="aspect-square w-full" />
        </a>
        <div className="flex items-center gap-1 p-2">
          <div className="min-w-0 flex-1">
            <p className="truncate text-sm font-medium text-slate-900 dark:text-slate-100" title={file.name}>
              {file.name}
            </p>
            <p className="text-xs text-slate-500 dark:text-slate-400">{formatFileSize(file.size)}</p>
          </div>
          <FileMenu file={file} actions={actions} />
        </div>
      </li>
    );
  }
  return (
    <li
      className="flex items-center gap-3 px-3 py-2 hover:bg-slate-50 dark:hover:bg-slate-800/50"
      data-testid="file-row"
    >
      <Thumb file={file} className="h-10 w-10 shrink-0 rounded" />
      <div className="min-w-0 flex-1">
        <a
          href={file.objectPath}
          target="_blank"
          rel="noreferrer"
          className="block truncate text-sm font-medium text-slate-900 hover:underline focus:outline-none focus-visible:underline dark:text-slate-100"
          title={file.name}
        >
          {file.name}
        </a>
        <p className="text-xs text-slate-500 dark:text-slate-400">
          {formatFileSize(file.size)} · {formatAge(file.createdAt as string)}
          {file.currentVersion > 1 ? ` · v${file.currentVersion}` : ''}
        </p>
      </div>
      <FileMenu file={file} actions={actions} />
    </li>
  );
}
