import { ButtonLink } from '../../ui/ButtonLink.tsx';

export default function NotFound({ home = '/', homeLabel = 'Go to Dashboard' }: { home?: string; homeLabel?: string }) {
  return (
    <div className="flex flex-col items-center justify-center py-24 text-center">
      <h1 className="text-2xl font-bold text-slate-900 dark:text-slate-100">404 Page Not Found</h1>
      <p className="mt-2 text-slate-600 dark:text-slate-400">The page you are looking for does not exist.</p>
      <ButtonLink to={home} className="mt-6">
        {homeLabel}
      </ButtonLink>
    </div>
  );
}
