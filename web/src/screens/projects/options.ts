import { toast } from '../../ui/toast.tsx';

// The Projects screen's words for roles and the invite form's rule.

export const PROJECT_ROLES = [
  { value: 'member', label: 'Crew member' },
  { value: 'owner', label: 'Owner' },
] as const;

// Enough to catch a typo before sending; the server has the final say (and the same words).
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The address to invite, or the message the form shows. */
export function inviteEmail(text: string): { error: string } | { email: string } {
  const email = text.trim();
  if (!email) return { error: 'Enter the e-mail address of the person to invite.' };
  if (!EMAIL.test(email)) return { error: 'Enter a valid e-mail address.' };
  return { email: email.toLowerCase() };
}

/** The app's error toast, in the spec's words ('Error' and what failed). */
export function showError(description: string): void {
  toast({ title: 'Error', description, variant: 'destructive' });
}
