/** The legal pages, open to everyone signed in or not (screens/legal/LegalPage.tsx). */
export const LEGAL_PATHS = ['/privacy', '/cookies', '/dmca', '/nda', '/terms'] as const;
