import { type ReactNode, useEffect, useState } from 'react';
import { Button } from '../../ui/Button.tsx';
import { GalleryIcon } from '../../ui/icons.tsx';
import { Spinner } from '../../ui/Spinner.tsx';
import { GalleryReview } from './GalleryReview.tsx';
import { Gone, PasswordForm } from './ReviewAccess.tsx';
import { loadReview, type ReviewLoad, watchReviewLink } from './reviewApi.ts';

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
