import { useVirtualizer } from '@tanstack/react-virtual';
import {
  type CSSProperties,
  type RefObject,
  startTransition,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { gridImage } from '../../lib/pictures.ts';
import { columnsFor, type Photo } from './photos.ts';
import { FeedbackBadges } from './FeedbackBadges.tsx';
import { feedbackLabel } from './feedbackFilter.ts';
import { type Reorder, SortablePhotos, useTileDrag } from './SortablePhotos.tsx';

const GAP = 8;
const EAGER_ROWS = 2;
/** How close to the last row in view the next page is asked for. */
const NEAR_END_ROWS = 3;
/** The widest grid's columns (columnsFor), and the cells shown before the width is known: two such rows. */
const FIRST_ROW_CELLS = 8;
const FIRST_CELLS = FIRST_ROW_CELLS * EAGER_ROWS;

type PhotoGridProps = {
  photos: readonly Photo[];
  hasMore: boolean;
  loadingMore: boolean;
  onLoadMore: () => void;
  onOpen: (index: number) => void;
  coverId?: string | null;
  /** Given, the photos can be dragged to new places (editors): where one was dropped. */
  onReorder?: Reorder;
};

const unchanging = () => () => {};
const inBrowser = () => false;
const onServer = () => true;

/**
 * The gallery's photos as a grid of thumbnails. Only the rows in view (plus a few) are in the DOM,
 * so 10,000 photos scroll as smoothly as 10; reaching the end asks for the next page.
 */
export function PhotoGrid(props: PhotoGridProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  // Rendered on the server, or taken over from such a page: its first rows are laid out by CSS
  // until the width is known. Rendered in the browser, the measured rows come alone (more cells
  // replacing fewer would be work on a phone's main thread for nothing).
  const fromServer = useRef(useSyncExternalStore(unchanging, inBrowser, onServer)).current;

  // The cells need the grid's width, known once the page is laid out. Set in a layout effect it
  // was rendered and committed synchronously inside the screen's own commit: on a phone one task of
  // hundreds of milliseconds. As a transition the cells come in slices of their own, and the
  // observer reads the width when the browser lays the page out anyway instead of forcing it early.
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const observer = new ResizeObserver(([entry]) => entry && startTransition(() => setWidth(entry.contentRect.width)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  return (
    <div ref={scrollRef} data-testid="photo-grid" className="h-[calc(100vh-16rem)] min-h-80 overflow-y-auto rounded-lg">
      {width > 0 ? (
        <PhotoRows {...props} width={width} scrollRef={scrollRef} />
      ) : (
        fromServer && <FirstRows {...props} />
      )}
      {props.loadingMore && <p className="py-3 text-center text-sm text-slate-500">Loading more photos…</p>}
    </div>
  );
}

function PhotoRows({
  photos,
  hasMore,
  loadingMore,
  onLoadMore,
  onOpen,
  coverId,
  onReorder,
  width,
  scrollRef,
}: PhotoGridProps & { width: number; scrollRef: RefObject<HTMLDivElement | null> }) {
  const columns = columnsFor(width);
  const cell = (width - GAP * (columns - 1)) / columns;
  const rowCount = Math.ceil(photos.length / columns);

  const virtualizer = useVirtualizer({
    count: rowCount,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => cell + GAP,
    overscan: 4,
  });

  // Row height depends on the width; re-measure when the columns change.
  // biome-ignore lint/correctness/useExhaustiveDependencies: cell is the trigger
  useEffect(() => virtualizer.measure(), [cell, virtualizer]);

  const rows = virtualizer.getVirtualItems();
  // Near the end of what is in view, not of the rows rendered beyond it: a first page that the
  // overscan reaches the end of would otherwise ask for the next one as the screen opens, while
  // its thumbnails are still on their way.
  const lastInView = virtualizer.range?.endIndex ?? -1;
  useEffect(() => {
    if (lastInView >= rowCount - NEAR_END_ROWS && hasMore && !loadingMore) onLoadMore();
  }, [lastInView, rowCount, hasMore, loadingMore, onLoadMore]);

  const Tile = onReorder ? SortablePhotoTile : PhotoTile;
  const grid = (
    <div style={{ height: virtualizer.getTotalSize(), position: 'relative', width: '100%' }}>
      {rows.map((row) => {
        const start = row.index * columns;
        return (
          <div key={row.key} className="absolute left-0 flex w-full" style={{ top: row.start, height: cell, gap: GAP }}>
            {photos.slice(start, start + columns).map((photo, i) => (
              <Tile
                key={photo.id}
                photo={photo}
                row={row.index}
                cover={photo.id === coverId}
                onOpen={() => onOpen(start + i)}
                style={{ width: cell, height: cell }}
              />
            ))}
          </div>
        );
      })}
    </div>
  );
  return onReorder ? (
    <SortablePhotos photos={photos} onReorder={onReorder}>
      {grid}
    </SortablePhotos>
  ) : (
    grid
  );
}

type TileProps = {
  photo: Photo;
  row: number;
  cover: boolean;
  onOpen: () => void;
  style?: CSSProperties;
  className?: string;
};

/** A photo that can be dragged: the cell moves as a whole, its Move button is the keyboard's handle. */
function SortablePhotoTile({ style, ...props }: TileProps) {
  const drag = useTileDrag(props.photo, style);
  return (
    <div ref={drag.ref} style={drag.style} {...drag.listeners} className="relative shrink-0 touch-manipulation">
      <PhotoTile {...props} className="h-full w-full" />
      {drag.handle}
    </div>
  );
}

/**
 * The first rows before the grid's width is known: in the page the server rendered, and in the
 * browser's first render when it takes that page over (main.tsx). The columns are those of
 * columnsFor, by the grid's own width (a container query), so the thumbnails the page asks for
 * first are in place as the HTML arrives, and the measured rows replace them cell for cell.
 */
function FirstRows({ photos, onOpen, coverId }: PhotoGridProps) {
  return (
    <div className="@container">
      <div className="grid grid-cols-2 gap-2 @min-[540px]:grid-cols-3 @min-[720px]:grid-cols-4 @min-[900px]:grid-cols-5 @min-[1080px]:grid-cols-6 @min-[1260px]:grid-cols-7 @min-[1440px]:grid-cols-8">
        {photos.slice(0, FIRST_CELLS).map((photo, i) => (
          <PhotoTile
            key={photo.id}
            photo={photo}
            row={Math.floor(i / FIRST_ROW_CELLS)}
            cover={photo.id === coverId}
            onOpen={() => onOpen(i)}
            className="aspect-square"
          />
        ))}
      </div>
    </div>
  );
}

function PhotoTile({ photo, row, cover, onOpen, style, className = '' }: TileProps) {
  return (
    <button
      type="button"
      onClick={onOpen}
      className={`relative shrink-0 overflow-hidden rounded-md bg-slate-200 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 focus-visible:ring-offset-2 dark:bg-slate-800 ${className}`}
      style={style}
      aria-label={[`Open ${photo.name}`, photo.feedback && feedbackLabel(photo.feedback)].filter(Boolean).join(': ')}
      data-testid="photo-tile"
    >
      {photo.processing ? (
        <span
          role="img"
          aria-label={`${photo.name} (preparing its thumbnail)`}
          data-testid="photo-processing"
          className="flex h-full w-full animate-pulse items-center justify-center p-2 text-center text-xs text-slate-600 dark:text-slate-300"
        >
          Preparing…
        </span>
      ) : (
        <img
          {...gridImage(photo)}
          alt={photo.name}
          // The first rows are in view as the screen opens: fetched at once, the
          // first with high priority (it is what the eye and LCP wait for).
          loading={row < EAGER_ROWS ? 'eager' : 'lazy'}
          fetchPriority={row === 0 ? 'high' : undefined}
          decoding="async"
          className="h-full w-full object-cover"
          draggable={false}
          // When it was painted, for the browser to record (bench/gallery.ts reads the first).
          elementtiming="thumbnail"
        />
      )}
      {cover && (
        <span className="absolute top-1 left-1 rounded bg-black/60 px-1.5 py-0.5 text-xs font-medium text-white">
          Cover
        </span>
      )}
      <FeedbackBadges counts={photo.feedback} />
    </button>
  );
}
