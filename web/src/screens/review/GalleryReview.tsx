import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { densitySrcSet } from '../../lib/pictures.ts';
import { buttonClass } from '../../ui/Button.tsx';
import { Dialog, DialogButtons } from '../../ui/Dialog.tsx';
import { DescribedField, Input } from '../../ui/Field.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { CommentIcon, DownloadIcon, GalleryIcon } from '../../ui/icons.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { PickButtons } from './PickButtons.tsx';
import { ReviewLightbox } from './ReviewLightbox.tsx';
import {
  addReviewComment,
  reviewPath,
  type PickValue,
  type ReviewData,
  ReviewGoneError,
  type ReviewPhoto,
  setReviewPick,
} from './reviewApi.ts';
import { commentCounts, pickOf, storedName, storeName, withPick } from './reviewState.ts';

// Leaflet is heavy: loaded only for a gallery with geotagged photos, after the grid.
const PhotoMap = lazy(() => import('../galleries/PhotoMap.tsx'));

function safeStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

/** Asks for the reviewer's name once per link, before their first comment or pick. */
function NameDialog({ open, onClose, onSave }: { open: boolean; onClose: () => void; onSave: (name: string) => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog
      open={open}
      onClose={onClose}
      title="What is your name?"
      description="The team sees it next to your comments and picks."
      size="sm"
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          const trimmed = name.trim();
          if (!trimmed) return setError('Please give your name.');
          if (trimmed.length > 100) return setError('The name is too long (at most 100 characters).');
          onSave(trimmed);
        }}
      >
        <DescribedField label="Your name" error={error}>
          {(control) => (
            <Input {...control} autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
          )}
        </DescribedField>
        <DialogButtons onCancel={onClose} label="Continue" pendingLabel="Continue" />
      </form>
    </Dialog>
  );
}

/** The gallery behind a review link: its photos to pick and comment on, and their map. */
export function GalleryReview({ token, initial, onGone }: { token: string; initial: ReviewData; onGone: () => void }) {
  const [data, setData] = useState(initial);
  const [name, setName] = useState(() => storedName(safeStorage(), token));
  const [index, setIndex] = useState<number | null>(null);
  // The action waiting for the reviewer's name: it runs once the name is given, or is dropped.
  const [waiting, setWaiting] = useState<{ run: (name: string) => void; cancel: () => void } | null>(null);
  const [pickError, setPickError] = useState<string | null>(null);
  const counts = useMemo(() => commentCounts(data.comments), [data.comments]);
  const located = useMemo(
    () =>
      data.photos.flatMap((photo) =>
        photo.location
          ? [{ id: photo.id, name: photo.name, gps: photo.location, index: data.photos.indexOf(photo) }]
          : [],
      ),
    [data.photos],
  );

  const withName = useCallback(
    (run: (name: string) => void, cancel: () => void = () => {}) => {
      if (name) run(name);
      else setWaiting({ run, cancel });
    },
    [name],
  );

  const failed = useCallback(
    (error: unknown) => {
      if (error instanceof ReviewGoneError) onGone();
      return error instanceof Error ? error.message : 'Something went wrong. Please try again.';
    },
    [onGone],
  );

  function pick(photo: ReviewPhoto, value: PickValue) {
    withName(async (who) => {
      setPickError(null);
      try {
        const saved = await setReviewPick(token, photo.id, { name: who, pick: value });
        setData((d) => ({ ...d, picks: withPick(d.picks, saved) }));
      } catch (error) {
        setPickError(failed(error));
      }
    });
  }

  function comment(photo: ReviewPhoto, body: string) {
    return new Promise<void>((resolve, reject) => {
      withName(async (who) => {
        try {
          const saved = await addReviewComment(token, { fileId: photo.id, name: who, body });
          setData((d) => ({ ...d, comments: [...d.comments, saved] }));
          resolve();
        } catch (error) {
          reject(new Error(failed(error)));
        }
      }, resolve);
    });
  }

  // Inside the lightbox when it is open: a dialog beside it would count as a click outside it.
  const nameDialog = (
    <NameDialog
      open={waiting !== null}
      onClose={() => {
        waiting?.cancel();
        setWaiting(null);
      }}
      onSave={(given) => {
        storeName(safeStorage(), token, given);
        setName(given);
        waiting?.run(given);
        setWaiting(null);
      }}
    />
  );

  const { gallery, photos } = data;
  const meta = [gallery.movieTvShow, gallery.projectName, gallery.location].filter(Boolean).join(' · ');

  return (
    <>
      <div className="space-y-1">
        <h1 className="text-2xl font-bold break-words">{gallery.name}</h1>
        {meta && <p className="text-sm text-slate-600 dark:text-slate-400">{meta}</p>}
        {gallery.description && (
          <p className="text-sm whitespace-pre-wrap text-slate-700 dark:text-slate-300">{gallery.description}</p>
        )}
        <p className="text-sm text-slate-600 dark:text-slate-400">
          {photos.length === 1 ? '1 photo' : `${photos.length} photos`}. Tap a photo to see it larger and comment; pick
          Yes, Maybe or No under each one.
        </p>
        {gallery.allowDownload && (
          <div className="flex flex-wrap gap-2 pt-2">
            <a href={reviewPath(token, '/export.zip')} download className={buttonClass('outline', 'sm')}>
              <DownloadIcon className="h-4 w-4" />
              All photos (ZIP)
            </a>
            <a href={reviewPath(token, '/export.pdf')} download className={buttonClass('outline', 'sm')}>
              <DownloadIcon className="h-4 w-4" />
              Lookbook (PDF)
            </a>
          </div>
        )}
        {name && (
          <p className="text-sm text-slate-600 dark:text-slate-400">
            Reviewing as <span className="font-medium text-slate-900 dark:text-slate-100">{name}</span>
          </p>
        )}
      </div>
      {pickError && (
        <p
          role="alert"
          className="mt-4 rounded-md bg-red-50 p-3 text-sm text-red-700 dark:bg-red-950 dark:text-red-300"
        >
          {pickError}
        </p>
      )}
      {photos.length === 0 ? (
        <EmptyState
          icon={<GalleryIcon className="h-10 w-10" />}
          title="No photos yet"
          text="Photos added to this gallery will appear here."
        />
      ) : (
        <ul className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4">
          {photos.map((photo, i) => {
            const count = counts.get(photo.id) ?? 0;
            return (
              <li
                key={photo.id}
                className="overflow-hidden rounded-lg border border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900"
              >
                <button
                  type="button"
                  onClick={() => setIndex(i)}
                  className="relative block aspect-square w-full bg-slate-100 focus:outline-none focus-visible:ring-2 focus-visible:ring-inset focus-visible:ring-indigo-500 dark:bg-slate-800"
                  aria-label={`Open ${photo.name}${count ? `, ${count === 1 ? '1 comment' : `${count} comments`}` : ''}`}
                >
                  <img
                    src={photo.thumbnailUrl ?? photo.previewUrl ?? photo.url}
                    // A phone's cell is about 180 CSS pixels: sharp there only with the 800-pixel one.
                    srcSet={photo.thumbnailUrl ? densitySrcSet(photo.thumbnailUrl, photo.thumbnail2xUrl) : undefined}
                    alt=""
                    // The first row is what the reviewer sees first (the page's largest paint).
                    loading={i < 4 ? 'eager' : 'lazy'}
                    fetchPriority={i < 2 ? 'high' : 'auto'}
                    decoding="async"
                    width={300}
                    height={300}
                    className="h-full w-full object-cover"
                  />
                  {count > 0 && (
                    <span
                      className="absolute right-1.5 bottom-1.5 inline-flex items-center gap-1 rounded-full bg-black/70 px-2 py-0.5 text-xs text-white"
                      aria-hidden="true"
                    >
                      <CommentIcon className="h-3.5 w-3.5" />
                      {count}
                    </span>
                  )}
                </button>
                <div className="p-1.5">
                  <PickButtons
                    photo={photo}
                    current={pickOf(data.picks, photo.id, name)}
                    onPick={(value) => pick(photo, value)}
                  />
                </div>
              </li>
            );
          })}
        </ul>
      )}
      {located.length > 0 && (
        <section className="mt-8" aria-labelledby="review-map">
          <h2 id="review-map" className="mb-3 text-lg font-semibold text-slate-900 dark:text-slate-100">
            Map
          </h2>
          <Suspense fallback={<Spinner />}>
            <PhotoMap
              photos={located}
              tiles={data.map}
              onOpen={(id) => setIndex(data.photos.findIndex((p) => p.id === id))}
            />
          </Suspense>
        </section>
      )}
      <ReviewLightbox
        data={data}
        index={index}
        name={name}
        onIndex={setIndex}
        onClose={() => setIndex(null)}
        onPick={pick}
        onComment={comment}
        pickError={pickError}
        nameDialog={nameDialog}
      />
      {index === null && nameDialog}
    </>
  );
}
