import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/**
 * End-to-end tests drive the production build (apps/server/dist serving apps/web/dist) on a free
 * port, on a copy of the run's migrated and seeded template database, in Debian's Chromium (never a
 * downloaded browser).
 * The port is chosen once in the main process and inherited by the workers through the environment.
 */
if (!process.env.E2E_PORT) {
  process.env.E2E_PORT = execFileSync(process.execPath, [
    '-e',
    "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})",
  ])
    .toString()
    .trim();
}
// The custody webhook secret the server and e2e/wallet.spec.ts (and its `npm run deposit`) share.
process.env.E2E_CUSTODY_SECRET ??= 'e2e-custody-webhook-secret-0123456789abcdef';
// The run's template data directory (migrated and seeded once by the webServer command, copied by
// every server of the run; see server-template.ts). Workers inherit the path.
if (!process.env.E2E_TEMPLATE_DIR)
  process.env.E2E_TEMPLATE_DIR = join(mkdtempSync(join(tmpdir(), 'meridian-e2e-')), 'template');
// The real instant the run started: the replayed market of every server of the run is anchored to
// it (server-template.ts `E2E_MARKET`), so what the tests see does not depend on the day they run.
process.env.E2E_RUN_STARTED_AT ??= new Date().toISOString();
const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const launchOptions = {
  executablePath: CHROMIUM_PATH,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'],
};

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  // On a loaded 2-core machine a lazily loaded page (Ant Design, its route chunk, its locale
  // namespace) took 7–16 s to show under two workers and the specs' own servers: waits are 15 s.
  timeout: 45_000,
  expect: { timeout: 15_000 },
  reporter: [
    ['list'],
    ['html', { outputFolder: 'playwright-report', open: 'never' }],
    ['json', { outputFile: 'playwright-report/results.json' }],
  ],
  use: {
    baseURL,
    // Playwright sets no limit of its own on an action or a navigation: one that never finished held
    // its worker until the test's timeout (ten minutes for the long back-office flows), then was
    // retried. A click waits for its element up to 30 s, a page load up to 45 s: twice the longest
    // seen on a loaded machine; then the test fails with the step that hung.
    actionTimeout: 30_000,
    navigationTimeout: 45_000,
    // The system's "reduce motion" setting: no Ant Design animations, no carousel autoplay. A
    // headless Chromium's GPU process took ~25 % of a core while a page animated.
    contextOptions: { reducedMotion: 'reduce' },
    // A trace records every action's DOM and a screencast: about a fifth of the CPU of a passing
    // run (docs/testing.md). In CI a failed test is tried again with its trace on; locally, where
    // nothing is retried, a failed test keeps the trace of its one run.
    trace: process.env.CI ? 'on-first-retry' : 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions,
  },
  projects: [
    { name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, launchOptions } },
    {
      name: 'mobile',
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 390, height: 844 },
        isMobile: true,
        hasTouch: true,
        launchOptions,
      },
    },
  ],
  webServer: {
    command: 'node start-server.ts',
    url: `${baseURL}/readyz`,
    reuseExistingServer: false,
    // The template's first start (initdb, migrations, seed), then the server on a copy.
    timeout: 180_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      E2E_TEMPLATE_DIR: process.env.E2E_TEMPLATE_DIR,
      E2E_RUN_STARTED_AT: process.env.E2E_RUN_STARTED_AT,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      CUSTODY_WEBHOOK_SECRET: process.env.E2E_CUSTODY_SECRET,
    },
  },
});
