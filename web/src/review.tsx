// The page behind a review link (/r/{token}) is its own entry: someone without an account opens it
// from a text message on a phone, so it loads neither the session check nor the app's router.
import { StrictMode } from 'react';
import { renderInSlices } from './lib/renderInSlices.ts';
import { applyStoredTheme } from './lib/theme.ts';
import { loadReview } from './screens/review/reviewApi.ts';
import ReviewPage from './screens/review/ReviewPage.tsx';
import { reviewTokenOf } from './screens/review/reviewState.ts';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('review.html has no #root element');

applyStoredTheme();

const token = reviewTokenOf(window.location.pathname);
if (token === null) {
  // The server sends this page only for /r/{token}; anything else belongs to the app.
  window.location.replace('/');
} else {
  // Asked for before React renders, so the gallery's data and the page's first paint overlap.
  const firstLoad = loadReview(token);
  renderInSlices(
    root,
    <StrictMode>
      <ReviewPage token={token} firstLoad={firstLoad} />
    </StrictMode>,
  );
}
