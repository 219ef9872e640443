import { BellIcon } from '../ui/icons.tsx';

// Replaced by the live notifications bell once its API is on main.
export function NotificationBellSlot() {
  return (
    <button
      type="button"
      aria-label="Notifications"
      className="relative rounded-md p-2 text-slate-600 hover:bg-slate-100 dark:text-slate-300 dark:hover:bg-slate-800"
    >
      <BellIcon />
    </button>
  );
}
