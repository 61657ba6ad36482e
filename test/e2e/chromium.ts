import { existsSync } from 'node:fs';

// The web tests drive the system's Chromium (Debian's package in CI): Playwright's own browser
// downloads are not available everywhere this project is built.

export const chromiumExecutablePath = process.env['CHROMIUM_PATH'] || '/usr/bin/chromium';

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
];

/** Fails with instructions, instead of Playwright's launch error, when Chromium is missing. */
export function assertChromiumInstalled(): void {
  if (!existsSync(chromiumExecutablePath)) {
    throw new Error(
      `Chromium not found at ${chromiumExecutablePath}. Install it (Debian/Ubuntu: ` +
        '`apt-get install chromium`) or point CHROMIUM_PATH at a Chromium or Chrome binary.',
    );
  }
}
