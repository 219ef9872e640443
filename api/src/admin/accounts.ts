import type { Services } from '../context.ts';
import { sendPasswordReset } from '../auth/recovery.ts';
import { disableUser } from '../auth/session-control.ts';

// What the console does to an account goes through the account rules of auth/, so disabling or a
// reset link from an administrator works exactly as it does anywhere else.

/** Disables (sessions and live sockets end at once) or enables an account; its data stays. */
export async function disableAccount(services: Services, userId: string, disabled: boolean) {
  await disableUser(services, userId, disabled);
}

/** E-mails the person a link to choose a new password, as "Forgot password?" does. */
export async function sendResetLink(services: Services, userId: string): Promise<void> {
  await sendPasswordReset(services, userId);
}
