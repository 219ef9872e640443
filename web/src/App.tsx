import { lazy, Suspense } from 'react';
import { AuthProvider, useAuth } from './auth/auth.tsx';
import { goToSignIn } from './auth/signIn.ts';
import { Button } from './ui/Button.tsx';
import { FullScreenSpinner } from './ui/Spinner.tsx';
import { loadReview, type ReviewLoad } from './screens/review/reviewApi.ts';
import { reviewTokenOf } from './screens/review/reviewState.ts';
import { Toaster } from './ui/toast.tsx';

// Nothing is shown before the session is known, so the entry holds no router: a visitor gets the
// light signed-out pages, someone signed in the app whose routes load their data
// (routes/signedIn.tsx). Signing in reloads the page; signing out swaps one for the other.
const SignedOutApp = lazy(() => import('./routes/signedOut.tsx'));
const SignedInApp = lazy(() => import('./routes/signedIn.tsx'));
// A review link (/r/{token}) is for people without an account, often on a phone: it skips the
// session check and both apps, and loads only its own small page.
const ReviewPage = lazy(() => import('./screens/review/ReviewPage.tsx'));

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

// The review page's data is asked for while its code loads, as the app's routes do with their queries.
let reviewRequest: { token: string; answer: Promise<ReviewLoad> } | undefined;

export function App() {
  const reviewToken = reviewTokenOf(window.location.pathname);
  if (reviewToken !== null) {
    if (reviewRequest?.token !== reviewToken) reviewRequest = { token: reviewToken, answer: loadReview(reviewToken) };
    return (
      <Suspense fallback={<FullScreenSpinner />}>
        <ReviewPage token={reviewToken} firstLoad={reviewRequest.answer} />
      </Suspense>
    );
  }
  return (
    <AuthProvider>
      <AppForSession />
      <Toaster />
    </AuthProvider>
  );
}
