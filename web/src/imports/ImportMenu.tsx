import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { useState } from 'react';
import { buttonClass } from '../ui/Button.tsx';
import { ChevronDownIcon, HardDriveIcon } from '../ui/icons.tsx';
import type { SourceId } from './api.ts';
import { ImportDialog } from './dialogs.ts';
import type { ImportDialogProps } from './ImportDialog.tsx';

const SOURCES: { id: SourceId; name: string }[] = [
  { id: 'local', name: 'Server folder' },
  { id: 'google-drive', name: 'Google Drive' },
  { id: 'dropbox', name: 'Dropbox' },
];

const itemClass =
  'block w-full px-3 py-2 text-left text-sm text-slate-700 data-focus:bg-slate-100 dark:text-slate-200 dark:data-focus:bg-slate-800';

/** The dashboard's "Import from" menu: each entry opens the import dialog on that source. */
export function ImportMenu(props: Omit<ImportDialogProps, 'open' | 'onClose' | 'initialSource'>) {
  const [source, setSource] = useState<SourceId | null>(null);
  return (
    <>
      <Menu>
        <MenuButton className={buttonClass('outline')}>
          <HardDriveIcon className="h-4 w-4" />
          Import from
          <ChevronDownIcon className="h-4 w-4" />
        </MenuButton>
        <MenuItems
          anchor="bottom end"
          className="z-40 w-48 rounded-md border border-slate-200 bg-white py-1 shadow-lg focus:outline-none dark:border-slate-700 dark:bg-slate-900"
        >
          {SOURCES.map((s) => (
            <MenuItem key={s.id}>
              <button type="button" className={itemClass} onClick={() => setSource(s.id)}>
                {s.name}
              </button>
            </MenuItem>
          ))}
        </MenuItems>
      </Menu>
      <ImportDialog {...props} open={source !== null} initialSource={source} onClose={() => setSource(null)} />
    </>
  );
}
