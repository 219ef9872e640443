import type { ReactNode } from 'react';

/** A list under a heading whose rows are parted by hairlines; each row gets its look and test id. */
export function RowList<T extends { id: string }>({
  items,
  rowClassName,
  testId,
  children,
}: {
  items: readonly T[];
  rowClassName: string;
  testId: string;
  children: (item: T) => ReactNode;
}) {
  return (
    <ul className="mt-2 divide-y divide-slate-100 dark:divide-slate-800">
      {items.map((item) => (
        <li key={item.id} className={rowClassName} data-testid={testId}>
          {children(item)}
        </li>
      ))}
    </ul>
  );
}
