import { type Browser, chromium } from 'playwright-core';

// Debian's Chromium (apt-get install chromium) driven by playwright-core, headless: the browser
// tests and bench:gallery start it the same way. Free of vitest, so a bench script can import it.
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-dev-shm-usage',
    ],
  });
}
