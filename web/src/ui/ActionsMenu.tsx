import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import type { ReactNode } from 'react';

// The ⋮ menu of a row (a file, a folder): Headless UI gives arrow keys, Enter, Escape and focus return.

export const menuItemClass =
  'block w-full px-3 py-2 text-left text-sm text-slate-700 data-focus:bg-slate-100 dark:text-slate-200 dark:data-focus:bg-slate-800';

export const dangerMenuItemClass = `${menuItemClass} text-red-600 dark:text-red-400`;

export function ActionsMenu({
  label,
  children,
  iconClass = 'h-5 w-5',
  widthClass = 'w-44',
  marginClass,
}: {
  /** The button's accessible name, e.g. "Actions for call-sheet.pdf". */
  label: string;
  children: ReactNode;
  iconClass?: string;
  widthClass?: string;
  /** E.g. '-mr-1' to line the icon up with a card's edge. */
  marginClass?: string;
}) {
  return (
    <Menu>
      <MenuButton
        className={`${marginClass ? `${marginClass} ` : ''}rounded p-1 text-slate-500 hover:bg-slate-100 hover:text-slate-900 focus:outline-none focus-visible:ring-2 focus-visible:ring-indigo-500 dark:hover:bg-slate-800 dark:hover:text-slate-100`}
        aria-label={label}
      >
        <svg viewBox="0 0 20 20" className={iconClass} fill="currentColor" aria-hidden="true">
          <circle cx="10" cy="4" r="1.5" />
          <circle cx="10" cy="10" r="1.5" />
          <circle cx="10" cy="16" r="1.5" />
        </svg>
      </MenuButton>
      <MenuItems
        anchor="bottom end"
        className={`z-40 ${widthClass} rounded-md border border-slate-200 bg-white py-1 shadow-lg focus:outline-none dark:border-slate-700 dark:bg-slate-900`}
      >
        {children}
      </MenuItems>
    </Menu>
  );
}

/** One action in an ActionsMenu; `danger` for one that deletes, disables or takes away. */
export function ActionsMenuItem({
  onClick,
  danger = false,
  children,
}: {
  onClick: () => void;
  danger?: boolean;
  children: ReactNode;
}) {
  return (
    <MenuItem>
      <button type="button" className={danger ? dangerMenuItemClass : menuItemClass} onClick={onClick}>
        {children}
      </button>
    </MenuItem>
  );
}
