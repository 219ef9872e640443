import { Button } from './Button.tsx';

/** What a Relay pagination fragment gives a paged list. */
export interface PagedList {
  hasNext: boolean;
  isLoadingNext: boolean;
  loadNext: (count: number) => unknown;
}

/** The button under a paged list that brings `count` more; nothing once the whole list is shown. */
export function LoadMore({
  list,
  count,
  label = 'Load more',
  className = '',
}: {
  list: PagedList;
  count: number;
  label?: string;
  /** Space above the button, e.g. 'pt-4'. */
  className?: string;
}) {
  if (!list.hasNext) return null;
  return (
    <div className={`flex justify-center ${className}`.trimEnd()}>
      <Button variant="outline" onClick={() => list.loadNext(count)} disabled={list.isLoadingNext}>
        {list.isLoadingNext ? 'Loading...' : label}
      </Button>
    </div>
  );
}
