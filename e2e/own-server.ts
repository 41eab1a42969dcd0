import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { test as base } from '@playwright/test';
import {
  copyServerTemplate,
  freePort,
  SERVER_ENTRY,
  serverEnv,
  stopServer,
  waitUntilReady,
} from './server-template.ts';

/** Time a server started from the run's template takes on this loaded 2-core machine, with room. */
const OWN_SERVER_READY_TIMEOUT_MS = 90_000;
/** The whole fixture: the copy, the spec's `prepare` (an `npm run ops` call takes seconds) and the start. */
const OWN_SERVER_SETUP_TIMEOUT_MS = 150_000;

/**
 * `test` whose `baseURL` is a server of the production build of its own, started for the test on a
 * copy of the run's migrated and seeded template (playwright.config.ts) and stopped after it: for
 * specs whose tests spend the demo account's money or start its email-code countdown, so that no
 * two tests share them. `prepare`, when given, runs on the copy before the server starts; its
 * result is the `prepared` fixture. `extraEnv` is added to the server's environment (e.g.
 * `REAL_CODE_RESEND_ENV`).
 */
export function ownServerTest<TPrepared = undefined>(
  label: string,
  custodySecret: string,
  prepare?: (dataDir: string) => Promise<TPrepared>,
  extraEnv: NodeJS.ProcessEnv = {},
) {
  return base.extend<{
    ownServer: string;
    prepared: TPrepared | undefined;
    ownServerState: { baseUrl: string; prepared: TPrepared | undefined };
  }>({
    ownServerState: [
      async ({ browserName }, use) => {
        const templateDir = process.env.E2E_TEMPLATE_DIR;
        if (!templateDir) throw new Error('E2E_TEMPLATE_DIR is not set: run the specs through playwright.config.ts');
        const port = await freePort();
        const dataDir = copyServerTemplate(templateDir, `${label}-${browserName}`);
        // Work on the database before the server holds its lock (e.g. add an operator with `npm run ops`).
        const prepared = prepare ? await prepare(dataDir) : undefined;
        const child = spawn(process.execPath, [SERVER_ENTRY], {
          env: serverEnv(port, dataDir, custodySecret, extraEnv),
          stdio: 'ignore',
        });
        const baseUrl = `http://127.0.0.1:${port}`;
        try {
          await waitUntilReady(baseUrl, child, OWN_SERVER_READY_TIMEOUT_MS);
          await use({ baseUrl, prepared });
        } finally {
          await stopServer(child);
          rmSync(dataDir, { recursive: true, force: true });
        }
      },
      // Its own time, not the test's: copying, preparing and starting a server under load.
      { timeout: OWN_SERVER_SETUP_TIMEOUT_MS },
    ],
    ownServer: async ({ ownServerState }, use) => use(ownServerState.baseUrl),
    /** What `prepare` returned for this test's copy. */
    prepared: async ({ ownServerState }, use) => use(ownServerState.prepared),
    baseURL: async ({ ownServer }, use) => use(ownServer),
  });
}
