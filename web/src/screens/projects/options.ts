import { choices } from '../../lib/choices.ts';
import { toast } from '../../ui/toast.tsx';

// The Projects screen's words for types, roles and gallery access, and its forms' rules.

export const PROJECT_TYPES = choices({
  campaign: 'Campaign',
  movie: 'Movie',
  tv_show: 'TV Show',
  commercial: 'Commercial',
});
export type ProjectType = (typeof PROJECT_TYPES)[number]['value'];

export const PERMISSIONS = choices({ read: 'View Only', write: 'Edit Access' });
export type Permission = (typeof PERMISSIONS)[number]['value'];

export const PROJECT_ROLES = choices({ member: 'Crew member', owner: 'Owner' });

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

export function projectInput(form: {
  name: string;
  description: string;
  type: string;
}): { error: string } | { input: { name: string; description: string | null; type: string } } {
  const name = form.name.trim();
  if (!name) return { error: 'Project name is required.' };
  return { input: { name, description: form.description.trim() || null, type: form.type || 'campaign' } };
}
