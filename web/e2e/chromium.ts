import { type Browser, chromium } from 'playwright-core';

/**
 * Each new tab would build the address bar's popup, a web page of its own (chrome://omnibox-popup):
 * hundreds of requests and a renderer's work on the CPU the page under test needs (Puppeteer's
 * launcher turns it off too). Chromium adds these to the launcher's own list of disabled features.
 */
const NO_ADDRESS_BAR_POPUP = '--disable-features=WebUIOmniboxPopup,WebUIOmniboxAimPopup';

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
      NO_ADDRESS_BAR_POPUP,
    ],
  });
}
