import { initials } from '../lib/format.ts';

export function Avatar({
  user,
  className = 'h-8 w-8 text-xs',
}: {
  user: {
    firstName?: string | null;
    lastName?: string | null;
    displayName?: string | null;
    email?: string | null;
    profileImageUrl?: string | null;
  };
  className?: string;
}) {
  if (user.profileImageUrl) {
    return <img src={user.profileImageUrl} alt="" className={`${className} rounded-full object-cover`} />;
  }
  return (
    <span
      aria-hidden="true"
      className={`${className} flex shrink-0 items-center justify-center rounded-full bg-indigo-100 font-semibold text-indigo-700 dark:bg-indigo-900 dark:text-indigo-200`}
    >
      {initials(user)}
    </span>
  );
}
