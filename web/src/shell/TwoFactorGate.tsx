import { useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { useViewer } from '../auth/auth.tsx';
import { SCREEN_ROUTES } from '../routing/screenModules.ts';

// Where someone may be while an administrator requires two-factor sign-in and they have not set it
// up: the Security screen to set it up, and their Account screen (to export or delete instead).
const ALLOWED = new Set<string>([SCREEN_ROUTES.security.path, SCREEN_ROUTES.account.path]);

/**
 * Sends a person who must set two-factor up (their profile's twoFactorRequired) to Settings ›
 * Security, where the section says why. In an effect: a page rendered on the server shows what it
 * was asked for, and the browser moves on once it has taken the page over.
 */
export function TwoFactorGate() {
  const { twoFactorRequired } = useViewer();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const away = twoFactorRequired === true && !ALLOWED.has(pathname);
  useEffect(() => {
    if (away) navigate(SCREEN_ROUTES.security.path, { replace: true });
  }, [away, navigate]);
  return null;
}
