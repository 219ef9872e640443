import type { ReactNode } from 'react';
import { SkeletonStack } from '../../ui/Skeleton.tsx';

/**
 * A console section's list as its read goes: the failure, placeholder rows while `items` is null,
 * `empty` when there are none, else what `children` makes of them.
 */
export function SectionBody<T>({
  failed,
  items,
  placeholder,
  empty,
  children,
}: {
  failed: string | null;
  items: readonly T[] | null;
  /** While loading: the placeholder rows' classes and the class (spacing) around them. */
  placeholder: { rows: readonly string[]; className: string };
  empty: ReactNode;
  children: (items: readonly T[]) => ReactNode;
}) {
  if (failed) {
    return (
      <p role="alert" className="text-sm text-red-700 dark:text-red-400">
        {failed}
      </p>
    );
  }
  if (!items) return <SkeletonStack rows={placeholder.rows} className={placeholder.className} />;
  return items.length === 0 ? empty : children(items);
}
