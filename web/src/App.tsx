import { lazy, Suspense, startTransition, useEffect, useState } from 'react';
import { AuthProvider, useAuth } from './auth/auth.tsx';
import { goToSignIn } from './auth/signIn.ts';
import { pinNow } from './lib/format.ts';
import { loadOnce } from './lib/loadOnce.ts';
import { tookOver } from './lib/takeover.ts';
import { Button } from './ui/Button.tsx';
import { FullScreenSpinner } from './ui/Spinner.tsx';
import { Toaster } from './ui/toast.tsx';

// Nothing is shown before the session is known, so the entry holds no router: a visitor gets the
// light signed-out pages, someone signed in the app whose routes load their data
// (routes/signedIn.tsx). Signing in reloads the page; signing out swaps one for the other.
const SignedOutApp = lazy(() => import('./routes/signedOut.tsx'));
let signedInApp: typeof import('./routes/signedIn.tsx') | undefined;
/** The signed-in app's module; a page rendered on the server hydrates once it is here (main.tsx). */
export const loadSignedInApp = loadOnce(() => import('./routes/signedIn.tsx').then((module) => (signedInApp = module)));
// The server marks the page when its request carried a session (api/src/http/web-page.ts): the
// signed-in app, whose routes ask for their data as it loads, starts while the session is checked
// instead of after. Should the session be gone, its first data call says so and goes to sign-in, as
// when a session ends under an open screen (e2e/auth.e2e.ts).
const startedEarly = !import.meta.env.SSR && document.querySelector('meta[name="scoutbase-session"]') !== null;
if (startedEarly) void loadSignedInApp();

/**
 * The signed-in app's module once loaded; until then undefined, and the loading screen stays. Not
 * React.lazy: that suspends once even for a loaded module, and React shows content that replaced a
 * placeholder no sooner than 300 ms after the placeholder, so a screen whose data the page carried
 * would wait for that. A module that fails to load throws to the error boundary, as lazy would.
 */
function useSignedInApp(wanted: boolean) {
  const [app, setApp] = useState(signedInApp);
  const [failure, setFailure] = useState<{ error: unknown }>();
  // Loaded since this component mounted (started early, above): shown in this same render.
  const loaded = app ?? signedInApp;
  useEffect(() => {
    if (!wanted || loaded) return;
    let active = true;
    loadSignedInApp().then(
      (module) => active && startTransition(() => setApp(module)),
      (error: unknown) => active && setFailure({ error }),
    );
    return () => {
      active = false;
    };
  }, [wanted, loaded]);
  if (failure) throw failure.error;
  return loaded;
}

function AuthError({ error }: { error: string }) {
  return (
    <div className="flex min-h-screen flex-col items-center justify-center gap-4 bg-slate-50 p-6 text-center dark:bg-slate-950">
      <p role="alert" className="text-lg font-medium text-red-700 dark:text-red-400">
        Authentication Error: {error}
      </p>
      <Button onClick={() => goToSignIn()}>Sign In</Button>
    </div>
  );
}

function AppForSession() {
  const { state } = useAuth();
  const SignedInApp = useSignedInApp(state.status === 'signedIn')?.default;
  useEffect(() => {
    if (state.status === 'signedOut' && startedEarly) void loadSignedInApp().then((app) => app.discardUnlessShown());
  }, [state.status]);
  if (state.status === 'loading') return <FullScreenSpinner />;
  if (state.status === 'error') return <AuthError error={state.error} />;
  if (state.status === 'signedIn') return SignedInApp ? <SignedInApp /> : <FullScreenSpinner />;
  return (
    <Suspense fallback={<FullScreenSpinner />}>
      <SignedOutApp />
    </Suspense>
  );
}

// A review link (/r/{token}) has its own entry, review.html (src/review.tsx).
export function App() {
  // Taken over from the server's render (main.tsx): the screen's relative times go on from now,
  // and the presses made before happen.
  useEffect(() => {
    pinNow(undefined);
    tookOver();
  }, []);
  return (
    <AuthProvider>
      <AppForSession />
      <Toaster />
    </AuthProvider>
  );
}
