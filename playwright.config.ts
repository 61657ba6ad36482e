import { defineConfig } from '@playwright/test';
import { chromiumArgs, chromiumExecutablePath } from './test/e2e/chromium';

const port = Number(process.env['ALLOCSCOPE_E2E_PORT'] || 4317);
const isCi = Boolean(process.env['CI']);
// Which web build to serve: out/web unless a parallel run built its own copy elsewhere.
const webDir = process.env['ALLOCSCOPE_E2E_WEB_DIR'] || 'out/web';

// The tests that time the page's responsiveness against itself (a click answered within 200 ms
// of the same click with a harmless file, while a bomb decodes) are tagged @alone and run after
// the others, one at a time: a second browser beside them on a 2-core machine would measure the
// machine, not the page.
const ALONE_TAG = /@alone/;

const browser = {
  browserName: 'chromium' as const,
  launchOptions: { executablePath: chromiumExecutablePath, args: chromiumArgs },
};

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results',
  fullyParallel: true,
  // Two browsers at once even on 2 cores: most of a spec's time is waits (page loads, decodes in
  // the worker, animation frames) that overlap; one worker left the second core mostly idle.
  workers: 2,
  forbidOnly: isCi,
  retries: 0,
  reporter: 'list',
  timeout: 30_000,
  // Two browsers share two cores: a check that waits on a decode or a redraw gets 10 s, not 5.
  expect: { timeout: 10_000 },
  use: {
    baseURL: `http://127.0.0.1:${port}/`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  webServer: {
    // Serves the static web build; `npm run build:web` must have run (npm test does).
    command: `node scripts/serve-static.mjs ${webDir} ${port}`,
    url: `http://127.0.0.1:${port}/index.html`,
    reuseExistingServer: !isCi,
    timeout: 15_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
  projects: [
    {
      name: 'web',
      testMatch: [
        'web.spec.ts',
        'hostile-files.spec.ts',
        'timeline.spec.ts',
        'oom.spec.ts',
        'export.spec.ts',
        'segments.spec.ts',
        'handover.spec.ts',
        'newest-files.spec.ts',
        'stack-panel.spec.ts',
        'layout.spec.ts',
        'keyboard.spec.ts',
        'holders.spec.ts',
        'steps.spec.ts',
        'compare.spec.ts',
        'ranks.spec.ts',
        'laptop.spec.ts',
        'tab-store.spec.ts',
        'serve.spec.ts',
        'html-report.spec.ts',
        'profiler-trace.spec.ts',
        'memory-timeline.spec.ts',
        'decode-preview.spec.ts',
      ],
      grepInvert: ALONE_TAG,
      use: browser,
    },
    {
      name: 'web-alone',
      testMatch: '*.spec.ts',
      testIgnore: 'electron.spec.ts',
      grep: ALONE_TAG,
      dependencies: ['web'],
      fullyParallel: false,
      use: browser,
    },
    { name: 'electron', testMatch: 'electron.spec.ts' },
  ],
});
