import { Suspense } from 'react';
import { graphql } from 'react-relay/hooks';
import { Link } from 'react-router-dom';
import { useRouteQuery } from '../../../routing/useRouteQuery.ts';
import { PageHeader } from '../../../ui/Card.tsx';
import { Skeleton } from '../../../ui/Skeleton.tsx';
import PasswordSection from './PasswordSection.tsx';
import { SessionsSection } from './SessionsSection.tsx';
import TwoFactorSection from './TwoFactorSection.tsx';
import type { SecurityScreenQuery } from './__generated__/SecurityScreenQuery.graphql';

function SecuritySections() {
  const { data, refresh } = useRouteQuery<SecurityScreenQuery>(
    graphql`
      query SecurityScreenQuery @preloadable {
        viewer {
          ...SessionsSection_viewer
        }
      }
    `,
  );
  return (
    <div className="space-y-6">
      <PasswordSection />
      <TwoFactorSection />
      <SessionsSection viewer={data.viewer} onChanged={() => void refresh()} />
    </div>
  );
}

function SecurityLoading() {
  return (
    <div className="space-y-6" aria-busy="true">
      <Skeleton className="h-40" />
      <Skeleton className="h-56" />
    </div>
  );
}

/** Settings → Security: the password, two-factor sign-in, and where the account is signed in. */
export default function SecurityScreen() {
  return (
    <div className="mx-auto max-w-3xl">
      <nav aria-label="Breadcrumb" className="mb-2 text-sm">
        <Link to="/settings" className="font-medium text-indigo-600 hover:underline dark:text-indigo-400">
          Settings
        </Link>
        <span className="text-slate-500 dark:text-slate-400"> / Security</span>
      </nav>
      <PageHeader title="Security" subtitle="Your password, two-factor sign-in and signed-in devices" />
      <Suspense fallback={<SecurityLoading />}>
        <SecuritySections />
      </Suspense>
    </div>
  );
}
