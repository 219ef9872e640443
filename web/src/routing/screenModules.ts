/**
 * Each signed-in screen's address and module. The router (routes/signedIn.tsx) takes its paths
 * from here, and the build (build/preloads.ts) its modules: a page asked for with a session names
 * the code of its screen in its HTML, so the browser fetches it with the entry instead of three
 * steps later. The shell reads its paths here too, below the route table that imports the screens.
 */
export const SCREEN_ROUTES = {
  dashboard: { path: '/', module: 'src/screens/dashboard/DashboardScreen.tsx' },
  galleries: { path: '/galleries', module: 'src/screens/galleries/GalleriesScreen.tsx' },
  gallery: { path: '/galleries/:id', module: 'src/screens/galleries/GalleryScreen.tsx' },
  files: { path: '/files', module: 'src/screens/files/FilesScreen.tsx' },
  tasks: { path: '/tasks', module: 'src/screens/tasks/TasksScreen.tsx' },
  projects: { path: '/projects', module: 'src/screens/projects/ProjectsScreen.tsx' },
  settings: { path: '/settings', module: 'src/screens/settings/SettingsScreen.tsx' },
  security: { path: '/settings/security', module: 'src/screens/settings/security/SecurityScreen.tsx' },
  account: { path: '/settings/account', module: 'src/screens/settings/account/AccountScreen.tsx' },
  admin: { path: '/admin', module: 'src/screens/admin/AdminScreen.tsx' },
} as const satisfies Record<string, { path: string; module: string }>;

/** The signed-in screens by name (routes/screenQueries.ts has a query for each). */
export type ScreenName = keyof typeof SCREEN_ROUTES;

/** What every signed-in page runs before its screen: the app's routes, its shell and Relay. */
export const SIGNED_IN_MODULES = ['src/routes/signedIn.tsx', 'src/shell/Shell.tsx', 'src/routing/queries.ts'];
/** What a visitor without a session runs first: the signed-out pages. */
export const SIGNED_OUT_MODULES = ['src/routes/signedOut.tsx'];
