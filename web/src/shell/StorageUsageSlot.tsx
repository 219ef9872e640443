import { HardDriveIcon } from '../ui/icons.tsx';

// Filled with the user's real usage once User.storage is on main.
export function StorageUsageSlot() {
  return (
    <div className="rounded-lg border border-slate-200 p-4 dark:border-slate-800">
      <p className="flex items-center gap-2 text-sm font-medium text-slate-800 dark:text-slate-200">
        <HardDriveIcon className="h-4 w-4" /> Storage Usage
      </p>
    </div>
  );
}
