import { useState } from 'react';
import { resendVerification } from '../auth/account.ts';
import { useAuth } from '../auth/auth.tsx';
import { Button } from '../ui/Button.tsx';
import { toast } from '../ui/toast.tsx';

/**
 * Above every screen while the person has not verified their address: why it matters (invitations
 * wait for it) and a way to get a new link.
 */
export default function VerifyEmailNotice() {
  const { state } = useAuth();
  const [pending, setPending] = useState(false);
  if (state.status !== 'signedIn' || state.user.emailVerified !== false) return null;

  async function resend() {
    setPending(true);
    try {
      const answer = await resendVerification();
      toast({ title: 'Verification e-mail sent', description: answer.message });
    } catch (error) {
      toast({
        title: 'Could not send the e-mail',
        description: error instanceof Error ? error.message : 'Please try again.',
        variant: 'destructive',
      });
    }
    setPending(false);
  }

  return (
    <section
      aria-label="Verify your e-mail address"
      className="mb-6 flex flex-col gap-3 rounded-lg border border-amber-300 bg-amber-50 p-4 text-sm text-amber-950 sm:flex-row sm:items-center sm:justify-between dark:border-amber-700 dark:bg-amber-950/40 dark:text-amber-100"
    >
      <p>
        <span className="font-semibold">Verify your e-mail address.</span> We sent a link to{' '}
        <span className="font-medium">{state.user.email}</span>. Until you open it, you cannot join projects you are
        invited to.
      </p>
      <Button variant="outline" size="sm" className="shrink-0" disabled={pending} onClick={() => void resend()}>
        {pending ? 'Sending...' : 'Resend verification e-mail'}
      </Button>
    </section>
  );
}
