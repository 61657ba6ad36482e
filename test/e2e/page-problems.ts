/// <reference lib="dom" />
import type { Page } from '@playwright/test';

declare global {
  interface Window {
    __cspViolations?: string[];
  }
}

/**
 * Collects everything that should never happen on a healthy page: console errors, uncaught
 * exceptions and Content-Security-Policy violations. Call before navigating.
 */
export async function watchPageProblems(page: Page): Promise<() => Promise<string[]>> {
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('requestfailed', (request) => {
    // Chromium reports some fetches read to their end through a stream as aborted, every byte
    // having arrived (never with blob()): the decode worker reads Electron's hand-over and the
    // demo so.
    if (request.failure()?.errorText === 'net::ERR_ABORTED' && request.resourceType() === 'fetch')
      return;
    problems.push(`request failed: ${request.url()} (${request.failure()?.errorText ?? '?'})`);
  });

  // Init scripts are injected by the browser, not by the page, so the policy does not apply.
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations?.push(`${event.effectiveDirective} blocked ${event.blockedURI}`);
    });
  });

  return async () => {
    const violations = await page.evaluate(() => window.__cspViolations ?? []);
    return [...problems, ...violations.map((violation) => `CSP violation: ${violation}`)];
  };
}
