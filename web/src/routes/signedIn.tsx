import { type ComponentType, lazy, useEffect } from 'react';
import {
  createBrowserRouter,
  type DataRouter,
  type LoaderFunctionArgs,
  matchRoutes,
  Navigate,
  type Params,
  type RouteObject,
  RouterProvider,
  useSearchParams,
} from 'react-router-dom';
import { safeCallbackUrl } from '../auth/signIn.ts';
import { loadOnce } from '../lib/loadOnce.ts';
import { serverPage } from '../lib/serverPage.ts';
import { prefetchOperation } from '../relay/prefetch.ts';
import { setRoutePreloader } from '../routing/intent.ts';
import { SCREEN_ROUTES, type ScreenName } from '../routing/screenModules.ts';
import type { ShellData } from '../shell/Shell.tsx';
import { FullScreenSpinner } from '../ui/Spinner.tsx';
import { LEGAL_PATHS } from './legalPaths.ts';
import { SHELL_QUERIES, screenQuery } from './screenQueries.ts';

// The signed-in app's route table. Each screen's route starts its code and its data together as
// the navigation starts: the loader sends the screen's query and hands the screen its query
// reference (`useRouteQuery`), which it reads without waiting for the answer.

const LegalPage = lazy(() => import('../screens/legal/LegalPage.tsx'));
// The e-mailed links open the same pages signed in as signed out (routes/signedOut.tsx).
const VerifyEmailPage = lazy(() => import('../screens/account/VerifyEmailPage.tsx'));
const ResetPasswordPage = lazy(() => import('../screens/account/ResetPasswordPage.tsx'));
const loadShell = loadOnce(() => import('../shell/Shell.tsx'));
const loadQueries = loadOnce(() => import('../routing/queries.ts'));
const loadNotFound = loadOnce(() => import('../screens/notfound/NotFound.tsx'));

/** The sign-in pages have nothing to do for someone signed in: on to where they were going. */
function AlreadySignedIn() {
  const [params] = useSearchParams();
  return <Navigate to={safeCallbackUrl(params.get('callbackUrl'))} replace />;
}

const SCREENS = {
  dashboard: loadOnce(() => import('../screens/dashboard/DashboardScreen.tsx')),
  galleries: loadOnce(() => import('../screens/galleries/GalleriesScreen.tsx')),
  gallery: loadOnce(() => import('../screens/galleries/GalleryScreen.tsx')),
  files: loadOnce(() => import('../screens/files/FilesScreen.tsx')),
  tasks: loadOnce(() => import('../screens/tasks/TasksScreen.tsx')),
  projects: loadOnce(() => import('../screens/projects/ProjectsScreen.tsx')),
  settings: loadOnce(() => import('../screens/settings/SettingsScreen.tsx')),
  security: loadOnce(() => import('../screens/settings/security/SecurityScreen.tsx')),
  account: loadOnce(() => import('../screens/settings/account/AccountScreen.tsx')),
  admin: loadOnce(() => import('../screens/admin/AdminScreen.tsx')),
} satisfies Record<ScreenName, unknown>;

function screen(name: ScreenName): RouteObject {
  const load: () => Promise<{ default: ComponentType }> = SCREENS[name];
  const { path } = SCREEN_ROUTES[name];
  return {
    ...(path === '/' ? { index: true } : { path: path.slice(1) }),
    id: name,
    lazy: async () => ({ Component: (await load()).default }),
    loader: async ({ params, request }: LoaderFunctionArgs) => {
      const { query, variables } = screenQuery(name, params, new URL(request.url));
      // Sent now, before Relay's runtime has arrived; Relay takes the answer (relay/prefetch.ts).
      if (query.params.id) prefetchOperation(query.params.id, variables);
      const { loadScreenQuery } = await loadQueries();
      return loadScreenQuery(query, variables);
    },
    // The screen refreshes its own data (useRouteQuery's refresh). A new address asks again only
    // when the part of it the query reads changes; the same address asks again (a retry, a
    // second click on the link).
    shouldRevalidate: ({ currentUrl, currentParams, nextUrl, nextParams, defaultShouldRevalidate }) =>
      currentUrl.href === nextUrl.href
        ? defaultShouldRevalidate
        : !sameQuery(name, { params: currentParams, url: currentUrl }, { params: nextParams, url: nextUrl }),
  };
}

type Address = { params: Params; url: URL };

/** Whether two addresses ask the screen for the same data (a moved address never does). */
function sameQuery(name: ScreenName, a: Address, b: Address): boolean {
  try {
    const variables = (at: Address) => JSON.stringify(screenQuery(name, at.params, at.url).variables);
    return variables(a) === variables(b);
  } catch {
    return false;
  }
}

export const routes: RouteObject[] = [
  {
    hydrateFallbackElement: <FullScreenSpinner />,
    children: [
      ...LEGAL_PATHS.map((path) => ({ path, element: <LegalPage /> })),
      { path: '/signin', element: <AlreadySignedIn /> },
      { path: '/signup', element: <AlreadySignedIn /> },
      { path: '/verify-email', element: <VerifyEmailPage signedIn /> },
      { path: '/reset-password', element: <ResetPasswordPage /> },
      {
        lazy: async () => ({ Component: (await loadShell()).default }),
        // The shell's data leaves with the first screen's; its parts keep themselves fresh after.
        loader: async (): Promise<ShellData> => {
          for (const query of Object.values(SHELL_QUERIES)) if (query.params.id) prefetchOperation(query.params.id, {});
          const { loadScreenQuery } = await loadQueries();
          const { theme, storage, bell } = SHELL_QUERIES;
          return {
            theme: loadScreenQuery(theme, {}),
            storage: loadScreenQuery(storage, {}),
            bell: loadScreenQuery(bell, {}),
          };
        },
        shouldRevalidate: () => false,
        children: [
          ...(Object.keys(SCREENS) as ScreenName[]).map(screen),
          { path: '*', lazy: async () => ({ Component: (await loadNotFound()).default }) },
        ],
      },
    ],
  },
];

// Made as the module loads, so the first screen's code and data start at once. A render on the
// server has a router of its own for its one address (server/render.tsx).
const browserRouter = import.meta.env.SSR ? undefined : createBrowserRouter(routes);
if (!import.meta.env.SSR) setRoutePreloader(preloadRoute);
let mounted = 0;
let shown = false;

/**
 * Once the router has the first screen's code and data: a page rendered on the server is hydrated
 * then (main.tsx), so the first render in the browser is the one the server made.
 */
export function routed(): Promise<boolean> {
  return settled(browserRouter as DataRouter);
}

/** Whether `router` settled on its first screen (its code and data loaded), within `mostMs`. */
export function settled(router: DataRouter, mostMs = Number.POSITIVE_INFINITY): Promise<boolean> {
  const ready = () => router.state.initialized && router.state.navigation.state === 'idle';
  return new Promise((resolve) => {
    if (ready()) return resolve(true);
    const timer = Number.isFinite(mostMs) ? setTimeout(() => finish(false), mostMs) : undefined;
    const stop = router.subscribe(() => ready() && finish(true));
    function finish(done: boolean) {
      clearTimeout(timer);
      stop();
      resolve(done);
    }
  });
}

export default function SignedInApp() {
  const router = (serverPage()?.router ?? browserRouter) as DataRouter;
  // Signed out, the app goes and its router with it: left listening, it would answer the Back
  // button by loading signed-in screens. StrictMode's trial unmount remounts before the timer runs.
  useEffect(() => {
    mounted += 1;
    shown = true;
    return () => {
      mounted -= 1;
      setTimeout(() => mounted === 0 && router.dispose());
    };
  }, [router]);
  return <RouterProvider router={router} />;
}

/**
 * Ends the router if the app was never shown: the entry starts this module on a hint of a session
 * (App.tsx) and the session turned out to be gone, so the signed-out pages own the address bar.
 */
export function discardUnlessShown() {
  if (!shown) browserRouter?.dispose();
}

/** What a link's preloadOnIntent (routing/intent.ts) does: starts its screen's code and data. */
function preloadRoute(to: string) {
  const url = new URL(to, window.location.origin);
  for (const match of matchRoutes(routes, url.pathname) ?? []) {
    const name = match.route.id;
    if (!name || !(name in SCREENS)) continue;
    void SCREENS[name as ScreenName]();
    let asked: ReturnType<typeof screenQuery>;
    try {
      asked = screenQuery(name as ScreenName, match.params, url);
    } catch {
      continue; // An address that redirects: the navigation itself will follow it.
    }
    void loadQueries().then(({ preloadScreenQuery }) => preloadScreenQuery(asked.query, asked.variables));
  }
}
