import { DialogPanel, DialogTitle } from '@headlessui/react';
import { type ReactNode, useEffect } from 'react';
import { formatDateTime, formatFileSize } from '../../lib/format.ts';
import { formatCoordinates, previewUrl } from '../../lib/pictures.ts';
import type { Photo } from './photos.ts';
import { Fact, PrevNextButtons, useArrowKeys, ViewerDialog, ViewerHeader } from '../../ui/MediaViewer.tsx';

/** How many photos before the last one loaded the next page is asked for. */
const NEAR_END = 3;

/** One photo at preview size with its metadata; arrow keys move through the gallery. */
export function Lightbox({
  photos,
  index,
  onIndex,
  onClose,
  actions,
  feedback,
  onNearEnd,
  total = photos.length,
}: {
  photos: readonly Photo[];
  /** How many photos there are, loaded or not (the counter's "of"). */
  total?: number;
  index: number | null;
  onIndex: (index: number) => void;
  onClose: () => void;
  actions?: (photo: Photo) => ReactNode;
  /** Comments and picks on the photo, under its facts. */
  feedback?: (photo: Photo) => ReactNode;
  /** Called near the last photo loaded, so the next ones arrive before the person gets there. */
  onNearEnd?: () => void;
}) {
  const photo = index === null ? undefined : photos[index];
  const hasPrev = index !== null && index > 0;
  const hasNext = index !== null && index < photos.length - 1;

  useEffect(() => {
    if (index !== null && index >= photos.length - NEAR_END) onNearEnd?.();
  }, [index, photos.length, onNearEnd]);

  const previous = hasPrev ? () => onIndex(index - 1) : undefined;
  const next = hasNext ? () => onIndex(index + 1) : undefined;
  useArrowKeys(index !== null, previous, next);

  return (
    <ViewerDialog open={photo !== undefined} onClose={onClose}>
      {photo && (
        <DialogPanel className="flex h-full w-full flex-col lg:flex-row" data-testid="lightbox">
          <div className="relative flex min-h-0 flex-1 items-center justify-center p-2 sm:p-6">
            <img
              key={photo.id}
              // Until its preview is made, the original itself (the server reads it as is).
              src={photo.processing ? photo.objectPath : previewUrl(photo.objectPath)}
              alt={photo.name}
              className="max-h-full max-w-full object-contain"
            />
            <PrevNextButtons noun="photo" onPrevious={previous} onNext={next} />
          </div>
          <aside className="max-h-[40vh] w-full overflow-y-auto border-t border-white/10 bg-slate-950 p-4 lg:max-h-none lg:w-80 lg:border-t-0 lg:border-l">
            <ViewerHeader onClose={onClose}>
              <DialogTitle className="text-base font-semibold break-all text-white">{photo.name}</DialogTitle>
            </ViewerHeader>
            <p className="mt-1 text-xs text-slate-400">
              {(index ?? 0) + 1} of {total.toLocaleString('en')}
            </p>
            <dl className="mt-4 space-y-3">
              <Fact label="Camera">{[photo.camera, photo.lens].filter(Boolean).join(' · ') || 'Unknown'}</Fact>
              <Fact label="Taken">{photo.takenAt ? formatDateTime(photo.takenAt) : 'Unknown'}</Fact>
              <Fact label="Dimensions">
                {photo.width && photo.height ? `${photo.width} × ${photo.height}` : 'Unknown'}
              </Fact>
              <Fact label="Location">
                {photo.gps ? (
                  <a
                    className="underline hover:text-indigo-300"
                    href={`https://www.openstreetmap.org/?mlat=${photo.gps.latitude}&mlon=${photo.gps.longitude}#map=16/${photo.gps.latitude}/${photo.gps.longitude}`}
                    target="_blank"
                    rel="noreferrer"
                  >
                    {formatCoordinates(photo.gps)}
                  </a>
                ) : (
                  'No GPS data'
                )}
              </Fact>
              <Fact label="Size">{formatFileSize(photo.size)}</Fact>
              {photo.tags.length > 0 && <Fact label="Tags">{photo.tags.join(', ')}</Fact>}
            </dl>
            <div className="mt-4 flex flex-wrap gap-2">
              <a
                href={photo.objectPath}
                target="_blank"
                rel="noreferrer"
                className="rounded-md border border-white/20 px-3 py-1.5 text-sm text-white hover:bg-white/10"
              >
                Open original
              </a>
              {actions?.(photo)}
            </div>
            {feedback?.(photo)}
          </aside>
        </DialogPanel>
      )}
    </ViewerDialog>
  );
}
