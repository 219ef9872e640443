import { lazy, Suspense } from 'react';
import { BrowserRouter, Navigate, Route, Routes, useSearchParams } from 'react-router-dom';
import { AuthProvider, useAuth } from './auth/auth.tsx';
import { goToSignIn, safeCallbackUrl } from './auth/signIn.ts';
import { Button } from './ui/Button.tsx';
import { FullScreenSpinner } from './ui/Spinner.tsx';
import { Toaster } from './ui/toast.tsx';

// Every screen is its own chunk: signed-out visitors never download Relay or the signed-in shell.
const LandingPage = lazy(() => import('./screens/landing/LandingPage.tsx'));
const LegalPage = lazy(() => import('./screens/legal/LegalPage.tsx'));
const SignInPage = lazy(() => import('./screens/signin/SignInPage.tsx'));
const Shell = lazy(() => import('./shell/Shell.tsx'));
const DashboardScreen = lazy(() => import('./screens/dashboard/DashboardScreen.tsx'));
const GalleriesScreen = lazy(() => import('./screens/galleries/GalleriesScreen.tsx'));
const GalleryScreen = lazy(() => import('./screens/galleries/GalleryScreen.tsx'));
const FilesScreen = lazy(() => import('./screens/files/FilesScreen.tsx'));
const TasksScreen = lazy(() => import('./screens/tasks/TasksScreen.tsx'));
const ProjectsScreen = lazy(() => import('./screens/projects/ProjectsScreen.tsx'));
const SettingsScreen = lazy(() => import('./screens/settings/SettingsScreen.tsx'));
const NotFound = lazy(() => import('./screens/notfound/NotFound.tsx'));

export const LEGAL_PATHS = ['/privacy', '/cookies', '/dmca', '/nda', '/terms'] as const;

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

/** The sign-in pages have nothing to do for someone signed in: on to where they were going. */
function AlreadySignedIn() {
  const [params] = useSearchParams();
  return <Navigate to={safeCallbackUrl(params.get('callbackUrl'))} replace />;
}

function AppRoutes() {
  const { state } = useAuth();
  if (state.status === 'loading') return <FullScreenSpinner />;
  if (state.status === 'error') return <AuthError error={state.error} />;
  return (
    <Suspense fallback={<FullScreenSpinner />}>
      <Routes>
        {LEGAL_PATHS.map((path) => (
          <Route key={path} path={path} element={<LegalPage />} />
        ))}
        {(['signin', 'signup'] as const).map((mode) => (
          <Route
            key={mode}
            path={`/${mode}`}
            element={state.status === 'signedIn' ? <AlreadySignedIn /> : <SignInPage mode={mode} />}
          />
        ))}
        {state.status === 'signedIn' ? (
          <Route element={<Shell />}>
            <Route index element={<DashboardScreen />} />
            <Route path="galleries" element={<GalleriesScreen />} />
            <Route path="galleries/:id" element={<GalleryScreen />} />
            <Route path="files" element={<FilesScreen />} />
            <Route path="tasks" element={<TasksScreen />} />
            <Route path="projects" element={<ProjectsScreen />} />
            <Route path="settings" element={<SettingsScreen />} />
            <Route path="*" element={<NotFound />} />
          </Route>
        ) : (
          <Route path="*" element={<LandingPage />} />
        )}
      </Routes>
    </Suspense>
  );
}

export function App() {
  return (
    <BrowserRouter>
      <AuthProvider>
        <AppRoutes />
        <Toaster />
      </AuthProvider>
    </BrowserRouter>
  );
}
