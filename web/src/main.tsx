import { StrictMode } from 'react';
import { App, loadSignedInApp } from './App.tsx';
import { peekCarriedAt } from './relay/prefetch.ts';
import { CARRIED_READ_AT, TIME_ZONE_COOKIE } from '../../api/src/users/contract.ts';
import { pinNow } from './lib/format.ts';
import { setRenderedAt } from './lib/now.ts';
import { tellPushPermission } from './lib/push.ts';
import { hydrateInSlices, renderInSlices } from './lib/renderInSlices.ts';
import { tellServer } from './lib/tellServer.ts';
import { applyStoredTheme, setDarkMode } from './lib/theme.ts';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

applyStoredTheme();
// The server shows dates in it when it renders a page (src/server/render.tsx).
tellServer(TIME_ZONE_COOKIE, Intl.DateTimeFormat().resolvedOptions().timeZone);
tellPushPermission();

const app = (
  <StrictMode>
    <App />
  </StrictMode>
);

if (root.dataset.rendered === undefined) renderInSlices(root, app);
else {
  // The server rendered the first screen (src/server/render.tsx), with the person's Dark Mode on
  // #root until the whole page has it. It is taken over once the signed-in app has routed to it
  // with the same carried answers, so the first render here is the server's.
  setDarkMode(root.classList.contains('dark'));
  root.classList.remove('dark');
  pinNow(renderedAt());
  setRenderedAt(renderedAt());
  loadSignedInApp()
    .then((signedIn) => signedIn.routed())
    .then(
      () => hydrateInSlices(root, app),
      // The app's code did not come: rendered afresh, the app shows why (its error boundary).
      () => renderInSlices(root, app),
    );
}

/** When the server read the answers it rendered the page with. */
function renderedAt() {
  const at = peekCarriedAt(CARRIED_READ_AT);
  return typeof at === 'string' ? new Date(at) : undefined;
}
