import {
  createContext,
  type ReactNode,
  startTransition,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
} from 'react';
import { CARRIED_PROFILE, type Profile } from '../../../api/src/users/contract.ts';
import { errorFromResponse } from '../lib/http.ts';
import { signOutEnded, signOutStarted } from '../lib/unauthorized.ts';
import { takeCarriedAt } from '../relay/prefetch.ts';
import { serverPage } from '../lib/serverPage.ts';
import { toast } from '../ui/toast.tsx';

/** The signed-in person, as GET /api/auth/user gives them. */
export type AuthUser = Profile;

export type AuthState =
  | { status: 'loading' }
  | { status: 'signedOut' }
  | { status: 'signedIn'; user: AuthUser }
  | { status: 'error'; error: string };

interface AuthContextValue {
  state: AuthState;
  /** Replace the signed-in user after a profile change. */
  setUser(user: AuthUser): void;
  /** Ends the session; false (after an error toast) when that failed. `notice` replaces the "Logged out" toast. */
  signOut(notice?: { title: string; description: string }): Promise<boolean>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

async function fetchUser(): Promise<AuthState> {
  try {
    const response = await fetch('/api/auth/user', { credentials: 'include', headers: { accept: 'application/json' } });
    if (response.status === 401) return { status: 'signedOut' };
    if (!response.ok) throw await errorFromResponse(response);
    return { status: 'signedIn', user: (await response.json()) as AuthUser };
  } catch (error) {
    return {
      status: 'error',
      error: error instanceof Error && error.message ? error.message : 'Failed to check authentication status',
    };
  }
}

/** Auth.js sign-out: a CSRF-protected form post; the session row ends on the server. */
async function postSignOut() {
  const csrf = await fetch('/api/auth/csrf', { credentials: 'include' });
  if (!csrf.ok) throw await errorFromResponse(csrf);
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const response = await fetch('/api/auth/signout', {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-auth-return-redirect': '1' },
    body: new URLSearchParams({ csrfToken, callbackUrl: '/' }),
  });
  if (!response.ok) throw await errorFromResponse(response);
}

/**
 * The session as the page carried it (api/src/http/web-page.ts: a signed-in screen's page carries
 * the profile GET /api/auth/user gives), read once: with it the app starts signed in, without that
 * round trip before anything else can be asked.
 */
let carriedSession: AuthState | undefined;
const sessionOf = (user: unknown): AuthState =>
  user ? { status: 'signedIn', user: user as AuthUser } : { status: 'loading' };
function sessionAtStart(): AuthState {
  // Rendered on the server: this page's own profile, never a tab's cached one.
  const page = serverPage();
  if (page) return sessionOf(page.answers.get(CARRIED_PROFILE));
  carriedSession ??= sessionOf(takeCarriedAt(CARRIED_PROFILE));
  return carriedSession;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<AuthState>(sessionAtStart);

  useEffect(() => {
    if (sessionAtStart().status !== 'loading') return;
    let active = true;
    void fetchUser().then((next) => {
      // As a transition, like the first render (lib/renderInSlices.ts): the app that replaces the
      // loading screen renders in slices, not in one long task.
      if (active) startTransition(() => setState(next));
    });
    return () => {
      active = false;
    };
  }, []);

  const setUser = useCallback((user: AuthUser) => setState({ status: 'signedIn', user }), []);

  // Signing in again reloads the page, which starts this flag afresh.
  const signOut = useCallback(async (notice?: { title: string; description: string }) => {
    signOutStarted();
    try {
      await postSignOut();
      // The signed-in app and its router go (App.tsx); the visitor's pages start at the landing page.
      window.history.replaceState(null, '', '/');
      setState({ status: 'signedOut' });
      toast(notice ?? { title: 'Logged out', description: 'You have been successfully logged out' });
      return true;
    } catch {
      signOutEnded();
      toast({ title: 'Error', description: 'Failed to logout', variant: 'destructive' });
      return false;
    }
  }, []);

  const value = useMemo(() => ({ state, setUser, signOut }), [state, setUser, signOut]);
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth outside AuthProvider');
  return value;
}

/** The signed-in user; only for components under the signed-in shell. */
export function useViewer(): AuthUser {
  const { state } = useAuth();
  if (state.status !== 'signedIn') throw new Error('useViewer needs a signed-in user');
  return state.user;
}
