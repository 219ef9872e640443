import { type Destination, dropHighlight, useFileDrop } from './FileActions.tsx';

// The File Manager's "Root > Scouting > Barns": each crumb opens its folder and takes dropped files.

/** A breadcrumb that opens its folder; dragged files can be dropped on it. */
function Crumb({
  to,
  onNavigate,
  onDropFiles,
  className,
}: {
  to: Destination;
  onNavigate: (folderId: string | null) => void;
  onDropFiles?: (to: Destination) => void;
  className: string;
}) {
  const { over, dropProps } = useFileDrop(onDropFiles && (() => onDropFiles(to)));
  return (
    <button
      type="button"
      onClick={() => onNavigate(to.id)}
      className={`${className} ${over ? dropHighlight : ''}`}
      {...dropProps}
    >
      {to.name}
    </button>
  );
}

export function Breadcrumbs({
  path,
  onNavigate,
  onDropFiles,
}: {
  path: readonly { id: string; name: string }[];
  onNavigate: (folderId: string | null) => void;
  onDropFiles?: (to: Destination) => void;
}) {
  if (path.length === 0) return null;
  return (
    <nav aria-label="Breadcrumb" className="text-sm">
      <ol className="flex flex-wrap items-center gap-1 text-slate-600 dark:text-slate-400">
        <li>
          <Crumb
            to={{ id: null, name: 'Root' }}
            onNavigate={onNavigate}
            onDropFiles={onDropFiles}
            className="rounded px-1 hover:text-indigo-600 hover:underline focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500"
          />
        </li>
        {path.map((folder, index) => (
          <li key={folder.id} className="flex min-w-0 max-w-full items-center gap-1">
            <span aria-hidden="true" className="shrink-0">
              &gt;
            </span>
            {index === path.length - 1 ? (
              <span
                aria-current="page"
                className="min-w-0 px-1 font-medium text-slate-900 [overflow-wrap:anywhere] dark:text-slate-100"
              >
                {folder.name}
              </span>
            ) : (
              <Crumb
                to={folder}
                onNavigate={onNavigate}
                onDropFiles={onDropFiles}
                className="block max-w-48 truncate rounded px-1 hover:text-indigo-600 hover:underline"
              />
            )}
          </li>
        ))}
      </ol>
    </nav>
  );
}
