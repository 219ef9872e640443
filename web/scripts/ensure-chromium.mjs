// The browser tests drive Debian's Chromium (playwright-core, no browser download). Before a test
// run: find it, install it where we may (root with apt-get, as CI runs), or stop at once with the
// one line that says what to run, instead of failing a long run at its last step.
import { spawnSync } from 'node:child_process';
import { accessSync, constants } from 'node:fs';

const chromium = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const usable = () => {
  try {
    accessSync(chromium, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

if (!usable()) {
  const hasAptGet = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  // Installing is allowed only where it needs no password (root) and for Debian's own path.
  if (!process.env.CHROMIUM_PATH && hasAptGet && process.getuid?.() === 0) {
    console.error("Browser tests need Chromium: installing Debian's chromium (apt-get install chromium)…");
    const installed = spawnSync('sh', ['-c', 'apt-get update -qq && apt-get install -y -qq chromium >/dev/null'], {
      stdio: 'inherit',
    });
    if (installed.status !== 0 || !usable()) {
      console.error(
        'Could not install chromium with apt-get; install it yourself (apt-get install chromium) or set CHROMIUM_PATH.',
      );
      process.exit(1);
    }
  } else {
    console.error(
      `Browser tests need Chromium at ${chromium}: run "sudo apt-get install chromium" (Debian/Ubuntu), or set CHROMIUM_PATH to a Chromium or Chrome binary.`,
    );
    process.exit(1);
  }
}
