import type { Viewer } from '../context.ts';

/** What the HTTP layer knows about a request before any route runs. */
export interface AppEnv {
  Variables: {
    viewer: Viewer | null;
    clientAddress: string;
    requestId: string;
    /** A JSON, form or text body, read once at the door (bodyGate, http/security.ts). */
    bodyText?: string;
  };
}
