import { Suspense, useEffect, useState, type FormEvent } from 'react';
import { graphql, type PreloadedQuery, RelayEnvironmentProvider, usePreloadedQuery } from 'react-relay/hooks';
import { Link, Outlet, useLoaderData, useLocation, useNavigate, useNavigation, useRevalidator } from 'react-router-dom';
import { useAuth, useViewer } from '../auth/auth.tsx';
import { AccessChangesFeed } from '../live/useAccessChanges.ts';
import { ProcessedPictures } from '../live/useProcessedPictures.ts';
import { setDarkMode } from '../lib/theme.ts';
import { appEnvironment } from '../relay/environment.ts';
import { preloadOnIntent } from '../routing/intent.ts';
import { SearchInput } from '../ui/Field.tsx';
import { Button } from '../ui/Button.tsx';
import { ButtonLink } from '../ui/ButtonLink.tsx';
import {
  FolderIcon,
  GalleryIcon,
  HomeIcon,
  LogOutIcon,
  SearchIcon,
  SettingsIcon,
  ShieldIcon,
  TasksIcon,
  UploadIcon,
  UsersIcon,
} from '../ui/icons.tsx';
import { Spinner } from '../ui/Spinner.tsx';
import { isActivePath } from './navigation.ts';
import { Avatar } from './Avatar.tsx';
import { AssistantSlot } from './AssistantSlot.tsx';
import { NotificationBellSlot } from './NotificationBellSlot.tsx';
import { QuietBoundary, ScreenBoundary } from './ScreenBoundary.tsx';
import { StorageUsageSlot } from './StorageUsageSlot.tsx';
import { TwoFactorGate } from './TwoFactorGate.tsx';
import VerifyEmailNotice from './VerifyEmailNotice.tsx';
import type { NotificationBellSlotQuery } from './__generated__/NotificationBellSlotQuery.graphql';
import type { ShellThemeQuery } from './__generated__/ShellThemeQuery.graphql';
import type { StorageUsageSlotQuery } from './__generated__/StorageUsageSlotQuery.graphql';

/** The shell's own data as its route's loader started it (routes/signedIn.tsx, SHELL_QUERIES). */
export type ShellData = {
  theme: PreloadedQuery<ShellThemeQuery>;
  storage: PreloadedQuery<StorageUsageSlotQuery>;
  bell: PreloadedQuery<NotificationBellSlotQuery>;
};

export const NAV_ITEMS = [
  { to: '/', label: 'Dashboard', icon: HomeIcon },
  { to: '/galleries', label: 'Galleries', icon: GalleryIcon },
  { to: '/files', label: 'File Manager', icon: FolderIcon },
  { to: '/projects', label: 'Projects', icon: UsersIcon },
  { to: '/tasks', label: 'Tasks', icon: TasksIcon },
  { to: '/settings', label: 'Settings', icon: SettingsIcon },
] as const;

/** Shown to administrators only (the console answers 404 to anyone else). */
const ADMIN_ITEM = { to: '/admin', label: 'Admin', icon: ShieldIcon } as const;

/** The phone's bottom bar: the sidebar's first five, with shorter names where the bar needs them. */
const MOBILE_LABELS: Partial<Record<string, string>> = { '/': 'Home', '/files': 'Files' };
const MOBILE_ITEMS = NAV_ITEMS.slice(0, 5).map((item) => ({ ...item, label: MOBILE_LABELS[item.to] ?? item.label }));

const themeQuery = graphql`
  query ShellThemeQuery @preloadable {
    viewer {
      id
      settings {
        darkMode
      }
    }
  }
`;

/** Dark Mode is the user's saved setting, applied to the whole app (a class on <html>). */
function ThemeSync({ reference }: { reference: PreloadedQuery<ShellThemeQuery> }) {
  const data = usePreloadedQuery<ShellThemeQuery>(themeQuery, reference);
  const dark = data.viewer.settings?.darkMode ?? false;
  useEffect(() => setDarkMode(dark), [dark]);
  return null;
}

/**
 * The header's search: beside the logo from a tablet up; on a phone a button opens it in a row of
 * its own under the header (`phone`), as Drive's app does, and it closes once sent.
 */
function HeaderSearch({ phone, onDone }: { phone?: boolean; onDone?: () => void }) {
  const navigate = useNavigate();
  const [query, setQuery] = useState('');
  const id = phone ? 'phone-search' : 'header-search';
  function submit(event: FormEvent) {
    event.preventDefault();
    const q = query.trim();
    if (!q) return;
    navigate(`/files?search=${encodeURIComponent(q)}`);
    onDone?.();
  }
  return (
    <form
      aria-label="Search"
      onSubmit={submit}
      className={phone ? 'relative flex flex-1' : 'relative hidden max-w-md flex-1 md:flex'}
    >
      <SearchInput
        id={id}
        label="Search"
        value={query}
        // Opened by its button, to be typed in at once.
        autoFocus={phone}
        onChange={(e) => setQuery(e.target.value)}
        onKeyDown={(e) => e.key === 'Escape' && onDone?.()}
        placeholder="Search files, tags, or galleries..."
        className="h-9 w-full rounded-md border border-slate-300 bg-slate-50 pr-3 pl-9 text-sm text-slate-900 placeholder:text-slate-400 focus:border-indigo-500 focus:bg-white focus:outline-none focus:ring-2 focus:ring-indigo-500/30 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-100 dark:focus:bg-slate-900"
      />
    </form>
  );
}

function Header({ bell }: { bell: ShellData['bell'] }) {
  const user = useViewer();
  const { signOut } = useAuth();
  const [signingOut, setSigningOut] = useState(false);
  const [searching, setSearching] = useState(false);
  async function onSignOut() {
    setSigningOut(true);
    if (!(await signOut())) setSigningOut(false);
  }
  return (
    <header className="sticky top-0 z-40 border-b border-slate-200 bg-white/90 backdrop-blur dark:border-slate-800 dark:bg-slate-950/90">
      <div className="flex h-14 items-center gap-3 px-3 sm:px-4">
        <Link to="/" className="flex items-center gap-2">
          <span
            aria-hidden="true"
            className="flex h-8 w-8 items-center justify-center rounded-lg bg-indigo-600 font-bold text-white"
          >
            S
          </span>
          <span className="sr-only text-base font-semibold text-slate-900 sm:not-sr-only dark:text-slate-100">
            Scoutbase
          </span>
        </Link>
        <Link
          to="/"
          className="hidden rounded-md px-2 py-1 text-sm font-medium text-slate-700 hover:bg-slate-100 lg:inline dark:text-slate-300 dark:hover:bg-slate-800"
        >
          Dashboard
        </Link>
        <div className="flex flex-1 justify-center">
          <HeaderSearch />
        </div>
        <button
          type="button"
          aria-expanded={searching}
          onClick={() => setSearching((open) => !open)}
          className="rounded-md p-2 text-slate-600 hover:bg-slate-100 md:hidden dark:text-slate-300 dark:hover:bg-slate-800"
        >
          <SearchIcon className="h-5 w-5" />
          <span className="sr-only">Search</span>
        </button>
        <NotificationBellSlot reference={bell} />
        {user.isAdmin && (
          // The sidebar, which has the Admin link, is hidden on a phone.
          <Link
            to={ADMIN_ITEM.to}
            {...preloadOnIntent(ADMIN_ITEM.to)}
            className="rounded-md p-2 text-slate-600 hover:bg-slate-100 md:hidden dark:text-slate-300 dark:hover:bg-slate-800"
          >
            <ShieldIcon className="h-5 w-5" />
            <span className="sr-only">Admin</span>
          </Link>
        )}
        <Link
          to="/settings"
          className="flex items-center gap-2 rounded-md p-1 hover:bg-slate-100 dark:hover:bg-slate-800"
        >
          <Avatar user={user} />
          <span className="sr-only sm:not-sr-only">
            <span className="block max-w-40 truncate text-sm font-medium text-slate-800 dark:text-slate-200">
              {[user.firstName, user.lastName].filter(Boolean).join(' ') || user.displayName || user.email}
            </span>
          </span>
        </Link>
        <Button variant="ghost" size="sm" onClick={onSignOut} disabled={signingOut}>
          <LogOutIcon className="h-4 w-4" />
          <span className="hidden sm:inline">Sign Out</span>
          <span className="sr-only sm:hidden">Sign Out</span>
        </Button>
      </div>
      {searching && (
        <div className="flex px-3 pb-2 md:hidden">
          <HeaderSearch phone onDone={() => setSearching(false)} />
        </div>
      )}
    </header>
  );
}

const NAV_LOOKS = {
  sidebar: {
    link: 'flex items-center gap-3 rounded-md px-3 py-2 text-sm font-medium',
    active: 'bg-indigo-50 text-indigo-700 dark:bg-indigo-950 dark:text-indigo-300',
    idle: 'text-slate-700 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800',
    icon: 'h-5 w-5',
  },
  mobile: {
    link: 'flex flex-1 flex-col items-center gap-1 py-2 text-xs font-medium',
    active: 'text-indigo-600 dark:text-indigo-400',
    idle: 'text-slate-600 dark:text-slate-400',
    icon: 'h-6 w-6',
  },
};

/** The entries of the sidebar or the mobile bar: each screen loads on intent, and the current one says so. */
function NavLinks({
  items,
  look,
}: {
  items: readonly { to: string; label: string; icon: (typeof NAV_ITEMS)[number]['icon'] }[];
  look: (typeof NAV_LOOKS)[keyof typeof NAV_LOOKS];
}) {
  const { pathname } = useLocation();
  return items.map((item) => {
    const active = isActivePath(item.to, pathname);
    return (
      <Link
        key={item.to}
        to={item.to}
        {...preloadOnIntent(item.to)}
        aria-current={active ? 'page' : undefined}
        className={`${look.link} ${active ? look.active : look.idle}`}
      >
        <item.icon className={look.icon} />
        {item.label}
      </Link>
    );
  });
}

function Sidebar({ storage }: { storage: ShellData['storage'] }) {
  const admin = useViewer().isAdmin === true;
  return (
    <aside className="sticky top-14 hidden h-[calc(100vh-3.5rem)] w-64 shrink-0 flex-col gap-6 overflow-y-auto border-r border-slate-200 bg-white p-4 md:flex dark:border-slate-800 dark:bg-slate-950">
      <ButtonLink to="/files?upload=true" className="w-full">
        <UploadIcon className="h-4 w-4" />
        Upload Files
      </ButtonLink>
      <nav aria-label="Main" className="flex flex-col gap-1">
        <NavLinks items={NAV_ITEMS} look={NAV_LOOKS.sidebar} />
        {admin && <NavLinks items={[ADMIN_ITEM]} look={NAV_LOOKS.sidebar} />}
      </nav>
      <div className="mt-auto">
        <StorageUsageSlot reference={storage} />
      </div>
    </aside>
  );
}

function MobileNav() {
  return (
    <nav
      aria-label="Mobile"
      className="fixed inset-x-0 bottom-0 z-40 flex border-t border-slate-200 bg-white pb-[env(safe-area-inset-bottom)] md:hidden dark:border-slate-800 dark:bg-slate-950"
    >
      <NavLinks items={MOBILE_ITEMS} look={NAV_LOOKS.mobile} />
    </nav>
  );
}

/** A thin bar along the top while the next screen's code or data is on its way. */
function NavigationProgress() {
  if (useNavigation().state === 'idle') return null;
  return (
    <div
      role="progressbar"
      aria-label="Loading the page"
      className="fixed inset-x-0 top-0 z-50 h-0.5 animate-pulse bg-indigo-500 dark:bg-indigo-400"
    />
  );
}

export default function Shell() {
  const shell = useLoaderData() as ShellData;
  const { pathname } = useLocation();
  // A screen whose data failed asks its route again: the loader starts a fresh query.
  const { revalidate } = useRevalidator();
  return (
    <RelayEnvironmentProvider environment={appEnvironment()}>
      <div className="min-h-screen bg-slate-50 text-slate-900 dark:bg-slate-900 dark:text-slate-100">
        <NavigationProgress />
        <TwoFactorGate />
        <Header bell={shell.bell} />
        <div className="flex">
          <Sidebar storage={shell.storage} />
          <main className="min-w-0 flex-1 px-4 pt-6 pb-24 sm:px-6 md:pb-10 lg:px-8">
            <VerifyEmailNotice />
            <ScreenBoundary resetKey={pathname} onRetry={revalidate}>
              <Suspense
                fallback={
                  <div className="flex justify-center py-24">
                    <Spinner className="h-8 w-8" />
                  </div>
                }
              >
                <Outlet />
              </Suspense>
            </ScreenBoundary>
          </main>
        </div>
        <MobileNav />
        <AssistantSlot />
        <QuietBoundary>
          <Suspense fallback={null}>
            <ThemeSync reference={shell.theme} />
          </Suspense>
        </QuietBoundary>
        <QuietBoundary>
          <ProcessedPictures />
        </QuietBoundary>
        <QuietBoundary>
          <AccessChangesFeed />
        </QuietBoundary>
      </div>
    </RelayEnvironmentProvider>
  );
}
