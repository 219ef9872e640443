// The signed-in person as the REST API gives them (GET /api/auth/user, the settings' profile
// answer) and as the web app keeps them (web/src/auth/auth.tsx imports this type), so the two
// cannot drift apart. Nothing here imports anything that runs: the web's compiler reads this file.

export interface Profile {
  id: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  /** The name to show: the one set, else first and last name, else the e-mail. */
  displayName: string;
  profileImageUrl: string | null;
  /** ISO date. */
  createdAt: string;
  /** Whether sign-in with a password also asks for a code (Settings › Security). */
  twoFactorEnabled?: boolean;
  /** An administrator requires two-factor and this person has not set it up: the app sends them to set it up. */
  twoFactorRequired?: boolean;
  /** An administrator of the instance: the app shows them the Admin link. */
  isAdmin?: boolean;
  /** Whether the person opened the link e-mailed to their address (or an identity provider vouched for it). */
  emailVerified?: boolean;
}

/** First and last names are at most this long (API and settings form). */
export const NAME_MAX = 100;

/** The key under which a signed-in page carries the person's profile (api/src/http/web-page.ts). */
export const CARRIED_PROFILE = 'GET /api/auth/user';

/**
 * The key under which a signed-in page carries when its answers were read (an ISO time, taken before
 * the first): the live connection asks whether anything the person may see changed since.
 */
export const CARRIED_READ_AT = 'answers read at';

/** The browser's time zone, as the web app leaves it in a cookie (web/src/main.tsx): a page rendered on the server shows dates in it. */
export const TIME_ZONE_COOKIE = 'scoutbase-tz';

/**
 * The browser's notification permission, as the web app leaves it in a cookie (web/src/lib/push.ts):
 * a page rendered on the server shows the settings' note about it, so nothing moves when the app takes over.
 */
export const PUSH_PERMISSION_COOKIE = 'scoutbase-push';

/** What a browser has told the server of itself in its cookies, for a page rendered there to be the one it would render. */
export interface BrowserFacts {
  timeZone: string;
  /** `Notification.permission`, or 'unsupported'; null when the browser has not said. */
  pushPermission: string | null;
}

/**
 * Where a page rendered on the server keeps the buttons pressed before the app took it over (its
 * inline script, api/src/http/web-page.ts): the app presses them again once it has (web/src/lib/takeover.ts).
 */
export const HELD_PRESSES = 'scoutbaseHeldPresses';
