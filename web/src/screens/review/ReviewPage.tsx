import { Dialog as HeadlessDialog, DialogPanel, DialogTitle } from '@headlessui/react';
import {
  type FormEvent,
  lazy,
  type ReactNode,
  Suspense,
  useCallback,
  useEffect,
  useId,
  useMemo,
  useState,
} from 'react';
import { formatDateTime } from '../../lib/format.ts';
import { densitySrcSet } from '../galleries/photos.ts';
import { Button, buttonClass } from '../../ui/Button.tsx';
import { Dialog, DialogButtons } from '../../ui/Dialog.tsx';
import { Input, Textarea } from '../../ui/Field.tsx';
import { EmptyState } from '../../ui/EmptyState.tsx';
import { CloseIcon, CommentIcon, DownloadIcon, GalleryIcon, ShieldIcon } from '../../ui/icons.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import {
  addReviewComment,
  loadReview,
  reviewPath,
  type PickValue,
  type ReviewData,
  ReviewGoneError,
  type ReviewLoad,
  type ReviewPhoto,
  setReviewPick,
  unlockReview,
  watchReviewLink,
} from './reviewApi.ts';
// Leaflet is heavy: loaded only for a gallery with geotagged photos, after the grid.
const PhotoMap = lazy(() => import('../galleries/PhotoMap.tsx'));

import { commentCounts, commentsOf, PICK_CHOICES, pickOf, storedName, storeName, withPick } from './reviewState.ts';

const THEME_KEY = 'scoutbase:dark-mode';

/** A reviewer has no settings: without a stored choice from the app, the phone's own theme. */
function useSystemThemeUnlessChosen() {
  useEffect(() => {
    try {
      if (localStorage.getItem(THEME_KEY) !== null) return;
    } catch {}
    const query = window.matchMedia?.('(prefers-color-scheme: dark)');
    if (!query) return;
    const apply = () => {
      document.documentElement.classList.toggle('dark', query.matches);
      document.documentElement.style.colorScheme = query.matches ? 'dark' : 'light';
    };
    apply();
    query.addEventListener('change', apply);
    return () => query.removeEventListener('change', apply);
  }, []);
}

function safeStorage(): Storage | undefined {
  try {
    return window.localStorage;
  } catch {
    return undefined;
  }
}

function Frame({ children }: { children: ReactNode }) {
  return (
    <div className="min-h-screen bg-slate-50 text-slate-900 dark:bg-slate-950 dark:text-slate-100">
      <header className="border-b border-slate-200 bg-white dark:border-slate-800 dark:bg-slate-900">
        <div className="mx-auto flex max-w-6xl items-center gap-2 px-4 py-3">
          <span className="grid h-8 w-8 place-items-center rounded-md bg-indigo-600 text-white" aria-hidden="true">
            <GalleryIcon className="h-5 w-5" />
          </span>
          <span className="font-semibold">Scoutbase</span>
          <span className="text-sm text-slate-500 dark:text-slate-400">· Review</span>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-6">{children}</main>
    </div>
  );
}

function PasswordForm({ token, message, onUnlocked }: { token: string; message: string; onUnlocked: () => void }) {
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const id = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!password) {
      setError('Please enter the password.');
      return;
    }
    setPending(true);
    setError(null);
    try {
      await unlockReview(token, password);
      onUnlocked();
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Something went wrong. Please try again.');
      setPending(false);
    }
  }

  return (
    <form
      onSubmit={submit}
      noValidate
      className="mx-auto mt-8 max-w-sm space-y-4 rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900"
    >
      <div className="flex items-center gap-2">
        <ShieldIcon className="h-5 w-5 text-indigo-600 dark:text-indigo-400" />
        <h1 className="text-lg font-semibold">Password required</h1>
      </div>
      <p className="text-sm text-slate-600 dark:text-slate-400">{message}</p>
      <div className="space-y-1.5">
        <label htmlFor={id} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
          Password
        </label>
        <Input
          id={id}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          autoFocus
        />
        {error && (
          <p id={`${id}-error`} role="alert" className="text-sm text-red-600 dark:text-red-400">
            {error}
          </p>
        )}
      </div>
      <Button type="submit" className="w-full" disabled={pending}>
        {pending ? 'Opening...' : 'Open gallery'}
      </Button>
    </form>
  );
}

function Gone() {
  return (
    <div className="mx-auto mt-8 flex max-w-md flex-col items-center rounded-lg border border-dashed border-slate-300 px-6 py-12 text-center dark:border-slate-700">
      <GalleryIcon className="mb-3 h-10 w-10 text-slate-400 dark:text-slate-500" />
      <h1 className="text-lg font-semibold">This review link is no longer available</h1>
      <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
        It may have expired or been turned off. Ask the person who sent it for a new link.
      </p>
    </div>
  );
}

/** Asks for the reviewer's name once per link, before their first comment or pick. */
function NameDialog({ open, onClose, onSave }: { open: boolean; onClose: () => void; onSave: (name: string) => void }) {
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const id = useId();
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
        <label htmlFor={id} className="block text-sm font-medium text-slate-700 dark:text-slate-300">
          Your name
        </label>
        <Input
          id={id}
          className="mt-1.5"
          autoComplete="name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
        />
        {error && (
          <p id={`${id}-error`} role="alert" className="mt-1.5 text-sm text-red-600 dark:text-red-400">
            {error}
          </p>
        )}
        <DialogButtons onCancel={onClose} label="Continue" pendingLabel="Continue" />
      </form>
    </Dialog>
  );
}

const pickTone: Record<PickValue, string> = {
  yes: 'bg-green-700 text-white border-green-700',
  maybe: 'bg-amber-700 text-white border-amber-700',
  no: 'bg-red-700 text-white border-red-700',
};

function PickButtons({
  photo,
  current,
  onPick,
  dark = false,
}: {
  photo: ReviewPhoto;
  current: PickValue | null;
  onPick: (pick: PickValue) => void;
  dark?: boolean;
}) {
  const idle = dark
    ? 'border-white/30 text-white hover:bg-white/10'
    : 'border-slate-300 bg-white text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800';
  return (
    // biome-ignore lint/a11y/useSemanticElements: a group of toggle buttons, not a form fieldset
    <div role="group" aria-label={`Your pick for ${photo.name}`} className="grid grid-cols-3 gap-1">
      {PICK_CHOICES.map((choice) => (
        <button
          key={choice.value}
          type="button"
          aria-pressed={current === choice.value}
          onClick={() => onPick(choice.value)}
          className={`min-h-9 rounded-md border px-1 text-sm font-medium focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 ${
            current === choice.value ? pickTone[choice.value] : idle
          }`}
        >
          {choice.label}
        </button>
      ))}
    </div>
  );
}

function CommentForm({ photo, onSend }: { photo: ReviewPhoto; onSend: (body: string) => Promise<void> }) {
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const id = useId();

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!body.trim()) {
      setError('Please write a comment.');
      return;
    }
    setPending(true);
    setError(null);
    try {
      await onSend(body.trim());
      setBody('');
    } catch (e) {
      setError(e instanceof Error ? e.message : 'Failed to send the comment. Please try again.');
    } finally {
      setPending(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-2">
      <label htmlFor={id} className="block text-sm font-medium text-slate-200">
        Comment on {photo.name}
      </label>
      <Textarea
        id={id}
        rows={3}
        value={body}
        onChange={(e) => setBody(e.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-300">
          {error}
        </p>
      )}
      <Button type="submit" size="sm" disabled={pending}>
        {pending ? 'Sending...' : 'Send comment'}
      </Button>
    </form>
  );
}

function ReviewLightbox({
  data,
  index,
  name,
  onIndex,
  onClose,
  onPick,
  onComment,
  pickError,
  nameDialog,
}: {
  data: ReviewData;
  index: number | null;
  name: string;
  onIndex: (index: number) => void;
  onClose: () => void;
  onPick: (photo: ReviewPhoto, pick: PickValue) => void;
  onComment: (photo: ReviewPhoto, body: string) => Promise<void>;
  pickError: string | null;
  nameDialog: ReactNode;
}) {
  const photo = index === null ? undefined : data.photos[index];
  const hasPrev = index !== null && index > 0;
  const hasNext = index !== null && index < data.photos.length - 1;

  useEffect(() => {
    if (index === null) return;
    const onKey = (event: KeyboardEvent) => {
      // Not while typing a comment: the arrows move the caret there.
      if (event.target instanceof HTMLTextAreaElement || event.target instanceof HTMLInputElement) return;
      if (event.key === 'ArrowLeft' && hasPrev) onIndex(index - 1);
      if (event.key === 'ArrowRight' && hasNext) onIndex(index + 1);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [index, hasPrev, hasNext, onIndex]);

  const comments = photo ? commentsOf(data.comments, photo.id) : [];
  const navClass =
    'rounded-md border border-white/20 px-3 py-1.5 text-sm text-white hover:bg-white/10 focus:outline-none focus-visible:ring-2 focus-visible:ring-white disabled:opacity-30';

  return (
    <HeadlessDialog open={photo !== undefined} onClose={onClose} className="relative z-40">
      {/* Opaque: on a phone the page scrolls under the photo, and the grid must not show through. */}
      <div className="fixed inset-0 bg-black" aria-hidden="true" />
      <div className="fixed inset-0 overflow-y-auto lg:overflow-hidden">
        {photo && (
          <DialogPanel className="flex min-h-full flex-col lg:h-full lg:flex-row" data-testid="review-lightbox">
            <div className="flex items-center justify-center p-2 lg:min-h-0 lg:flex-1 lg:p-6">
              <img
                key={photo.id}
                src={photo.previewUrl ?? photo.url}
                alt={photo.name}
                width={photo.width ?? undefined}
                height={photo.height ?? undefined}
                className="h-auto max-h-[60vh] w-auto max-w-full object-contain lg:max-h-full"
              />
            </div>
            <aside className="flex-1 space-y-4 border-t border-white/10 bg-slate-950 p-4 text-slate-100 lg:w-96 lg:flex-none lg:overflow-y-auto lg:border-t-0 lg:border-l">
              <div className="flex items-start justify-between gap-2">
                <div className="min-w-0">
                  <DialogTitle className="text-base font-semibold break-all text-white">{photo.name}</DialogTitle>
                  <p className="text-xs text-slate-400">
                    {(index ?? 0) + 1} of {data.photos.length}
                    {photo.takenAt ? ` · ${formatDateTime(photo.takenAt)}` : ''}
                  </p>
                </div>
                <button
                  type="button"
                  onClick={onClose}
                  className="rounded p-1 text-slate-300 hover:text-white focus:outline-none focus-visible:ring-2 focus-visible:ring-white"
                  aria-label="Close"
                >
                  <CloseIcon className="h-5 w-5" />
                </button>
              </div>
              <div className="flex gap-2">
                <button
                  type="button"
                  className={navClass}
                  disabled={!hasPrev}
                  onClick={() => hasPrev && onIndex((index ?? 0) - 1)}
                >
                  ← Previous
                </button>
                <button
                  type="button"
                  className={navClass}
                  disabled={!hasNext}
                  onClick={() => hasNext && onIndex((index ?? 0) + 1)}
                >
                  Next →
                </button>
                {data.gallery.allowDownload && (
                  <a
                    href={photo.url}
                    download={photo.name}
                    className="ml-auto rounded-md border border-white/20 px-3 py-1.5 text-sm text-white hover:bg-white/10"
                  >
                    Download
                  </a>
                )}
              </div>
              <PickButtons
                photo={photo}
                current={pickOf(data.picks, photo.id, name)}
                onPick={(pick) => onPick(photo, pick)}
                dark
              />
              {pickError && (
                <p role="alert" className="text-sm text-red-300">
                  {pickError}
                </p>
              )}
              <section aria-labelledby="review-comments-heading" className="space-y-3">
                <h2 id="review-comments-heading" className="text-sm font-semibold text-white">
                  Comments ({comments.length})
                </h2>
                {comments.length === 0 ? (
                  <p className="text-sm text-slate-400">No comments on this photo yet.</p>
                ) : (
                  <ul className="space-y-2">
                    {comments.map((c) => (
                      <li key={c.id} className="rounded-md bg-white/5 p-2 text-sm">
                        <p className="text-xs text-slate-400">
                          <span className="font-medium text-slate-200">{c.name}</span> · {formatDateTime(c.createdAt)}
                        </p>
                        <p className="mt-0.5 whitespace-pre-wrap break-words">{c.body}</p>
                      </li>
                    ))}
                  </ul>
                )}
                <CommentForm key={photo.id} photo={photo} onSend={(body) => onComment(photo, body)} />
              </section>
            </aside>
            {nameDialog}
          </DialogPanel>
        )}
      </div>
    </HeadlessDialog>
  );
}

function GalleryReview({ token, initial, onGone }: { token: string; initial: ReviewData; onGone: () => void }) {
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

/** The page behind a review link, /r/{token}: no account, one gallery. */
export default function ReviewPage({ token, firstLoad }: { token: string; firstLoad?: Promise<ReviewLoad> }) {
  useSystemThemeUnlessChosen();
  const [load, setLoad] = useState<ReviewLoad | null>(null);
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new attempt asks for the page again
  useEffect(() => {
    document.title = 'Review · Scoutbase';
    let live = true;
    setLoad(null);
    void (attempt === 0 && firstLoad ? firstLoad : loadReview(token)).then((answer) => {
      if (!live) return;
      setLoad(answer);
      if (answer.status === 'ready') document.title = `${answer.data.gallery.name} · Review · Scoutbase`;
    });
    return () => {
      live = false;
    };
  }, [token, attempt]);

  const reload = () => setAttempt((n) => n + 1);

  // Revoked while open: the gallery gives way to the message at once (its photos are no longer served).
  const ready = load?.status === 'ready';
  useEffect(() => {
    if (!ready) return;
    return watchReviewLink(token, () => setLoad({ status: 'gone' }));
  }, [token, ready]);

  return (
    <Frame>
      {load === null && (
        <div className="flex justify-center py-16">
          <Spinner className="h-8 w-8" label="Loading the gallery" />
        </div>
      )}
      {load?.status === 'locked' && <PasswordForm token={token} message={load.message} onUnlocked={reload} />}
      {load?.status === 'gone' && <Gone />}
      {load?.status === 'error' && (
        <div className="py-16 text-center">
          <p role="alert" className="text-red-700 dark:text-red-400">
            {load.message}
          </p>
          <Button className="mt-4" variant="outline" onClick={reload}>
            Try again
          </Button>
        </div>
      )}
      {load?.status === 'ready' && (
        <GalleryReview token={token} initial={load.data} onGone={() => setLoad({ status: 'gone' })} />
      )}
    </Frame>
  );
}
