import { lazy, Suspense } from 'react';
import { AuthProvider, useAuth } from './auth/auth.tsx';
import { goToSignIn } from './auth/signIn.ts';
import { Button } from './ui/Button.tsx';
import { FullScreenSpinner } from './ui/Spinner.tsx';
import { Toaster } from './ui/toast.tsx';

// Nothing is shown before the session is known, so the entry holds no router: a visitor gets the
// light signed-out pages, someone signed in the app whose routes load their data
// (routes/signedIn.tsx). Signing in reloads the page; signing out swaps one for the other.
const SignedOutApp = lazy(() => import('./routes/signedOut.tsx'));
const SignedInApp = lazy(() => import('./routes/signedIn.tsx'));

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
  if (state.status === 'loading') return <FullScreenSpinner />;
  if (state.status === 'error') return <AuthError error={state.error} />;
  return (
    <Suspense fallback={<FullScreenSpinner />}>
      {state.status === 'signedIn' ? <SignedInApp /> : <SignedOutApp />}
    </Suspense>
  );
}

// A review link (/r/{token}) has its own entry, review.html (src/review.tsx).
export function App() {
  return (
    <AuthProvider>
      <AppForSession />
      <Toaster />
    </AuthProvider>
  );
}
