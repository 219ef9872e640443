import { useEffect, useRef } from 'react';
import { graphql, useFragment } from 'react-relay/hooks';
import { toast } from '../../ui/toast.tsx';
import type { FileSearchResults_query$key } from './__generated__/FileSearchResults_query.graphql';
import { type FileRowActions, FileRows } from './FileRow.tsx';
import { type FileSort, folderPathText, searchCompleteText, sortFiles } from './options.ts';

/** Server search results (queries longer than 2 characters), in the chosen order. */
export function FileSearchResults({
  query,
  term,
  sort,
  actions,
  layout,
}: {
  query: FileSearchResults_query$key;
  term: string;
  sort: FileSort;
  actions: FileRowActions;
  layout: 'list' | 'grid';
}) {
  const data = useFragment(
    graphql`
      fragment FileSearchResults_query on Query @argumentDefinitions(search: { type: "String!" }) {
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
  if (sorted.length === 0) {
    return <p className="py-12 text-center text-sm text-slate-500 dark:text-slate-400">No files found</p>;
  }
  return (
    <FileRows
      label="Search results"
      files={sorted}
      actions={actions}
      layout={layout}
      extras={(file) => ({ location: folderPathText(file.folderPath) })}
    />
  );
}
