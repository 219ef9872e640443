import {
  type Announcements,
  closestCenter,
  DndContext,
  type DragEndEvent,
  DragOverlay,
  KeyboardSensor,
  MouseSensor,
  TouchSensor,
  type UniqueIdentifier,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { rectSortingStrategy, SortableContext, sortableKeyboardCoordinates, useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { type CSSProperties, type KeyboardEventHandler, type ReactNode, useMemo, useRef, useState } from 'react';
import type { MoveTarget } from './GalleryOrder.tsx';
import { gridImage } from '../../lib/pictures.ts';
import type { Photo } from './photos.ts';

// Dragging photos in the grid to arrange them by hand (editors only): with the mouse from anywhere
// on a photo, on a touch screen after holding it a moment (so a swipe still scrolls), and from the
// keyboard with each photo's Move button (Space to pick it up, arrows, Space to drop, Escape to
// cancel). A drop asks the server to put the photo just before the photo it landed on (moving it
// earlier) or just after it (moving it later), which in a sorted gallery makes the order the people
// see the custom order first, as Move earlier / later in the lightbox do.

export type Reorder = (fileId: string, target: MoveTarget) => void;

const INSTRUCTIONS =
  'To move a photo, press Space on its Move button, choose its new place with the arrow keys, then ' +
  'press Space again to drop it there, or Escape to leave it where it was.';

/** The grid's rows (`children`), with drag and drop among the loaded photos. */
export function SortablePhotos({
  photos,
  onReorder,
  children,
}: {
  photos: readonly Photo[];
  onReorder: Reorder;
  children: ReactNode;
}) {
  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 8 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 250, tolerance: 8 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const ids = useMemo(() => photos.map((photo) => photo.id), [photos]);
  const [active, setActive] = useState<Photo | null>(null);
  // The click that ends a drag with the mouse is not one that opens the photo.
  const dragging = useRef(false);

  const name = (id: UniqueIdentifier) => photos.find((photo) => photo.id === id)?.name ?? 'The photo';
  const place = (id: UniqueIdentifier) => `place ${ids.indexOf(String(id)) + 1} of ${ids.length}`;
  // Said once per place passed: the first "over" is the photo's own place, as it is picked up.
  const lastOver = useRef<UniqueIdentifier | null>(null);
  const announcements: Announcements = {
    onDragStart: ({ active }) => {
      lastOver.current = active.id;
      return `Picked up ${name(active.id)}, at ${place(active.id)}.`;
    },
    onDragOver: ({ active, over }) => {
      if (!over || over.id === lastOver.current) return undefined;
      lastOver.current = over.id;
      return `${name(active.id)} would go to ${place(over.id)}.`;
    },
    onDragEnd: ({ active, over }) =>
      over ? `${name(active.id)} dropped at ${place(over.id)}.` : `${name(active.id)} stays where it was.`,
    onDragCancel: ({ active }) => `Moving ${name(active.id)} cancelled: it stays where it was.`,
  };

  const end = () => {
    setActive(null);
    setTimeout(() => {
      dragging.current = false;
    });
  };
  const onDragEnd = ({ active: moved, over }: DragEndEvent) => {
    end();
    if (!over || moved.id === over.id) return;
    const from = ids.indexOf(String(moved.id));
    const to = ids.indexOf(String(over.id));
    if (from < 0 || to < 0) return;
    onReorder(String(moved.id), from < to ? { afterFileId: String(over.id) } : { beforeFileId: String(over.id) });
  };

  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      accessibility={{ announcements, screenReaderInstructions: { draggable: INSTRUCTIONS } }}
      onDragStart={({ active: picked }) => {
        dragging.current = true;
        setActive(photos.find((photo) => photo.id === picked.id) ?? null);
      }}
      onDragEnd={onDragEnd}
      onDragCancel={end}
    >
      <SortableContext items={ids} strategy={rectSortingStrategy}>
        <div
          onClickCapture={(event) => {
            if (!dragging.current) return;
            event.preventDefault();
            event.stopPropagation();
          }}
        >
          {children}
        </div>
      </SortableContext>
      <DragOverlay>
        {active && (
          <img
            {...gridImage(active)}
            alt=""
            draggable={false}
            className="h-full w-full cursor-grabbing rounded-md object-cover shadow-xl ring-2 ring-indigo-500"
          />
        )}
      </DragOverlay>
    </DndContext>
  );
}

/**
 * What a photo's cell needs to be dragged: its node and style (where it is pushed to as another
 * photo passes), the mouse and touch listeners for the whole cell, and its Move button, the
 * keyboard's handle.
 */
export function useTileDrag(photo: Photo, style: CSSProperties | undefined) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: photo.id,
  });
  const { onKeyDown, ...pointer } = listeners ?? {};
  return {
    ref: setNodeRef,
    style: {
      ...style,
      transform: CSS.Translate.toString(transform),
      transition,
      opacity: isDragging ? 0.4 : undefined,
    } satisfies CSSProperties,
    listeners: pointer,
    handle: (
      <button
        ref={setActivatorNodeRef}
        type="button"
        {...attributes}
        // The cell's mouse and touch listeners are the drag's; this one is the keyboard's, seen
        // when it has the focus (the mouse drags the photo itself).
        onKeyDown={onKeyDown as KeyboardEventHandler | undefined}
        aria-label={`Move ${photo.name}`}
        className="absolute right-1 bottom-1 rounded bg-black/60 p-1 text-white not-focus:sr-only focus:outline-none focus-visible:ring-2 focus-visible:ring-white"
      >
        <svg viewBox="0 0 24 24" className="h-4 w-4" fill="currentColor" aria-hidden="true">
          {[6, 12, 18].flatMap((y) => [9, 15].map((x) => <circle key={`${x}-${y}`} cx={x} cy={y} r={1.6} />))}
        </svg>
      </button>
    ),
  };
}
