import { Link, useLocation, useNavigate } from 'react-router-dom';
import { useIdentityProviders } from '../../auth/useIdentityProviders.ts';
import { Button } from '../../ui/Button.tsx';
import { FolderIcon, GalleryIcon, SearchIcon, ShieldIcon, UsersIcon } from '../../ui/icons.tsx';

const FEATURES = [
  {
    icon: FolderIcon,
    title: 'File Management',
    text: 'Folders, drag-and-drop upload, version control and search for every file of the production.',
  },
  {
    icon: GalleryIcon,
    title: 'Photo Galleries',
    text: 'Location photos with metadata, geographic data, tagging and collaborative notes.',
  },
  {
    icon: ShieldIcon,
    title: 'Access Control',
    text: 'Granular permissions: share galleries with a project as view only or with edit access.',
  },
  {
    icon: UsersIcon,
    title: 'Team Collaboration',
    text: 'Assign tasks, track progress and keep the whole crew on the same page.',
  },
  {
    icon: SearchIcon,
    title: 'Smart Search',
    text: 'Tag-based search, content indexing and filters to find the right shot fast.',
  },
  {
    icon: ShieldIcon,
    title: 'Enterprise Security',
    text: 'Encryption and audit trails for confidential productions.',
  },
];

/** The logo and name, as in the landing page's header. */
export function Brand() {
  return (
    <Link to="/" className="flex items-center gap-2">
      <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-indigo-600 font-bold text-white">S</span>
      <span className="text-lg font-semibold">Scoutbase</span>
    </Link>
  );
}

export default function LandingPage() {
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  // A signed-out visitor on any other path signs in back to it.
  const back = pathname === '/' ? '' : `?callbackUrl=${encodeURIComponent(pathname + search)}`;
  const signIn = () => navigate(`/signin${back}`);
  // It names a provider only when there is exactly one besides the password (Google, or the company's own).
  const providers = useIdentityProviders();
  const signInLabel = providers?.length === 1 ? `Sign In with ${providers[0]?.name}` : 'Sign In';

  return (
    <div className="min-h-screen bg-gradient-to-b from-slate-50 to-white text-slate-900 dark:from-slate-950 dark:to-slate-900 dark:text-slate-100">
      <header className="border-b border-slate-200 bg-white/80 backdrop-blur dark:border-slate-800 dark:bg-slate-950/80">
        <div className="mx-auto flex max-w-6xl items-center justify-between px-4 py-4">
          <Brand />
          <Button onClick={signIn}>{signInLabel}</Button>
        </div>
      </header>

      <main>
        <section className="mx-auto max-w-4xl px-4 py-16 text-center sm:py-24">
          <p className="inline-flex items-center gap-2 rounded-full bg-amber-100 px-3 py-1 text-xs font-semibold uppercase tracking-wide text-amber-900 dark:bg-amber-900/40 dark:text-amber-200">
            <ShieldIcon className="h-4 w-4" /> Authorized Access Only
          </p>
          <h1 className="mt-6 text-4xl font-bold tracking-tight sm:text-5xl">
            The location scouting workspace for film, TV and campaign teams
          </h1>
          <p className="mx-auto mt-4 max-w-2xl text-lg text-slate-600 dark:text-slate-400">
            Files, photo galleries, tasks and an AI assistant in one place, on set and in the office.
          </p>
          <div className="mt-8 flex justify-center">
            <Button size="lg" onClick={() => navigate(`/signup${back}`)}>
              Get Started
            </Button>
          </div>
        </section>

        <section aria-labelledby="features" className="mx-auto max-w-6xl px-4 pb-16">
          <h2 id="features" className="sr-only">
            Features
          </h2>
          <div className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
            {FEATURES.map((feature) => (
              <div
                key={feature.title}
                className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm dark:border-slate-800 dark:bg-slate-900"
              >
                <feature.icon className="h-8 w-8 text-indigo-600 dark:text-indigo-400" />
                <h3 className="mt-4 font-semibold">{feature.title}</h3>
                <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{feature.text}</p>
              </div>
            ))}
          </div>
        </section>

        <section className="mx-auto max-w-4xl px-4 pb-20 text-center">
          <h2 className="text-2xl font-semibold">Ready to scout?</h2>
          <p className="mt-2 text-slate-600 dark:text-slate-400">Sign in with your production account.</p>
          <Button size="lg" className="mt-6" onClick={signIn}>
            {signInLabel}
          </Button>
        </section>
      </main>

      <footer className="border-t border-slate-200 py-6 text-sm text-slate-600 dark:border-slate-800 dark:text-slate-400">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-4 px-4">
          <span>LAST UPDATE: 9.3.2025</span>
          <LegalLinks />
        </div>
      </footer>
    </div>
  );
}

export function LegalLinks() {
  const links = [
    ['/privacy', 'Privacy Policy'],
    ['/cookies', 'Cookie Policy'],
    ['/dmca', 'DMCA Policy'],
    ['/nda', 'NDA'],
    ['/terms', 'Terms of Service'],
  ] as const;
  return (
    <nav aria-label="Legal" className="flex flex-wrap gap-4">
      {links.map(([to, label]) => (
        <Link key={to} to={to} className="hover:text-slate-900 hover:underline dark:hover:text-slate-100">
          {label}
        </Link>
      ))}
    </nav>
  );
}
