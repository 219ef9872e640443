import { lazy } from 'react';
import { BrowserRouter, Route, Routes } from 'react-router-dom';
import LandingPage from '../screens/landing/LandingPage.tsx';
import { LEGAL_PATHS } from './legalPaths.ts';
import { SCREEN_ROUTES } from '../routing/screenModules.ts';

// The pages of someone not signed in: light on purpose (no Relay, no data router, no shell), since
// every visitor's first page is one of them. The landing page comes with them: most visits
// start there.
const LegalPage = lazy(() => import('../screens/legal/LegalPage.tsx'));
const SignInPage = lazy(() => import('../screens/signin/SignInPage.tsx'));
const VerifyEmailPage = lazy(() => import('../screens/account/VerifyEmailPage.tsx'));
const ResetPasswordPage = lazy(() => import('../screens/account/ResetPasswordPage.tsx'));
const NotFound = lazy(() => import('../screens/notfound/NotFound.tsx'));

// The signed-in app's addresses (a link someone was sent) lead to the landing page, whose sign-in
// brings them there; an address that is nothing signed in either is the 404 page.
const APP_PATHS = [...new Set(Object.values(SCREEN_ROUTES).map(({ path }) => path))];

export default function SignedOutApp() {
  return (
    <BrowserRouter>
      <Routes>
        {LEGAL_PATHS.map((path) => (
          <Route key={path} path={path} element={<LegalPage />} />
        ))}
        <Route path="/signin" element={<SignInPage mode="signin" />} />
        <Route path="/signup" element={<SignInPage mode="signup" />} />
        <Route path="/verify-email" element={<VerifyEmailPage />} />
        <Route path="/reset-password" element={<ResetPasswordPage />} />
        {APP_PATHS.map((path) => (
          <Route key={path} path={path} element={<LandingPage />} />
        ))}
        <Route
          path="*"
          element={
            <main>
              <NotFound home="/" homeLabel="Go to Home Page" />
            </main>
          }
        />
      </Routes>
    </BrowserRouter>
  );
}
