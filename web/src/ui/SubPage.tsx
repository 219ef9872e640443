import { type ReactNode, Suspense } from 'react';
import { Link } from 'react-router-dom';
import { PageHeader } from './Card.tsx';
import { SkeletonStack } from './Skeleton.tsx';

/**
 * A page under another (Settings / Security): the way back to `parent`, its header, and `children`
 * once their data has loaded, placeholders of the `loading` heights before.
 */
export function SubPage({
  parent,
  title,
  subtitle,
  loading,
  children,
}: {
  parent: { to: string; label: string };
  title: string;
  subtitle: string;
  loading: readonly string[];
  children: ReactNode;
}) {
  return (
    <div className="mx-auto max-w-3xl">
      <nav aria-label="Breadcrumb" className="mb-2 text-sm">
        <Link to={parent.to} className="font-medium text-indigo-600 hover:underline dark:text-indigo-400">
          {parent.label}
        </Link>
        <span className="text-slate-500 dark:text-slate-400"> / {title}</span>
      </nav>
      <PageHeader title={title} subtitle={subtitle} />
      <Suspense fallback={<SkeletonStack rows={loading} />}>{children}</Suspense>
    </div>
  );
}
