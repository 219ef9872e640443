import { type ReactNode, useEffect, useRef } from 'react';
import { graphql, useFragment } from 'react-relay/hooks';
import { Link } from 'react-router-dom';
import { countOf } from '../../lib/format.ts';
import { appPath } from '../../lib/globalId.ts';
import { FolderIcon, GalleryIcon } from '../../ui/icons.tsx';
import { toast } from '../../ui/toast.tsx';
import type { FileSearchResults_query$key } from './__generated__/FileSearchResults_query.graphql';
import { type FileRowActions, FileRows } from './FileRow.tsx';
import { type FileSort, folderPathText, searchCompleteText, sortFiles } from './options.ts';

/**
 * Server search results (queries longer than 2 characters): the galleries and folders the viewer
 * may see that match, then the files, in the chosen order.
 */
export function FileSearchResults({
  query,
  term,
  sort,
  actions,
  layout,
  onOpenFolder,
}: {
  query: FileSearchResults_query$key;
  /** Opens a folder found (the search ends). */
  onOpenFolder: (folderId: string) => void;
  term: string;
  sort: FileSort;
  actions: FileRowActions;
  layout: 'list' | 'grid';
}) {
  const data = useFragment(
    graphql`
      fragment FileSearchResults_query on Query @argumentDefinitions(search: { type: "String!" }) {
        galleries(search: $search, first: 20) {
          edges {
            node {
              id
              name
              location
              movieTvShow
              photoCount
            }
          }
        }
        searchFolders(query: $search, first: 20) {
          edges {
            node {
              id
              name
              path {
                name
              }
            }
          }
        }
        searchFiles(query: $search, first: 100) {
          edges {
            node {
              id
              name
              mimeType
              size
              createdAt
              folderPath
              ...FileRow_file
            }
          }
        }
      }
    `,
    query,
  );
  const results = data.searchFiles.edges.map((e) => e.node);
  const count = results.length;

  // One 'Search Complete' toast per search term, once its results are in.
  const announced = useRef<string | null>(null);
  useEffect(() => {
    if (announced.current === term) return;
    announced.current = term;
    toast({ title: 'Search Complete', description: searchCompleteText(count) });
  }, [term, count]);

  const sorted = sortFiles(
    results.map((r) => ({ ...r, createdAt: String(r.createdAt) })),
    sort,
  );
  const galleries = data.galleries.edges.map((e) => e.node);
  const folders = data.searchFolders.edges.map((e) => e.node);
  return (
    <div className="space-y-4">
      {galleries.length > 0 && (
        <Found title="Galleries" count={galleries.length}>
          {galleries.map((gallery) => (
            <li key={gallery.id}>
              <Link to={appPath.gallery(gallery.id)} className={foundClass}>
                <GalleryIcon className="h-5 w-5 shrink-0 text-indigo-600 dark:text-indigo-400" />
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-medium text-slate-900 dark:text-slate-100">{gallery.name}</span>
                  <span className="block truncate text-xs text-slate-600 dark:text-slate-400">
                    {[gallery.movieTvShow, gallery.location, countOf(gallery.photoCount, 'photo')]
                      .filter(Boolean)
                      .join(' · ')}
                  </span>
                </span>
              </Link>
            </li>
          ))}
        </Found>
      )}
      {folders.length > 0 && (
        <Found title="Folders" count={folders.length}>
          {folders.map((folder) => (
            <li key={folder.id}>
              <button type="button" onClick={() => onOpenFolder(folder.id)} className={foundClass}>
                <FolderIcon className="h-5 w-5 shrink-0 text-amber-600 dark:text-amber-400" />
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-medium text-slate-900 dark:text-slate-100">{folder.name}</span>
                  <span className="block truncate text-xs text-slate-600 dark:text-slate-400">
                    {folderPathText(folder.path.map((p) => p.name))}
                  </span>
                </span>
              </button>
            </li>
          ))}
        </Found>
      )}
      {galleries.length + folders.length > 0 && (
        <h2 className="px-3 pt-2 text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-400">
          Files ({sorted.length})
        </h2>
      )}
      {sorted.length === 0 ? (
        <p className="py-12 text-center text-sm text-slate-500 dark:text-slate-400">No files found</p>
      ) : (
        <FileRows
          label="Search results"
          files={sorted}
          actions={actions}
          layout={layout}
          extras={(file) => ({ location: folderPathText(file.folderPath) })}
        />
      )}
    </div>
  );
}

const foundClass =
  'flex w-full items-center gap-3 rounded px-3 py-2 text-left text-sm hover:bg-slate-50 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 dark:hover:bg-slate-800/50';

/** One kind of match (galleries, folders) above the files found. */
function Found({ title, count, children }: { title: string; count: number; children: ReactNode }) {
  return (
    <section aria-label={`${title} found`}>
      <h2 className="px-3 pt-2 text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-400">
        {title} ({count})
      </h2>
      <ul className="divide-y divide-slate-200 dark:divide-slate-700">{children}</ul>
    </section>
  );
}
