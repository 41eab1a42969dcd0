import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { copyServerTemplate, prepareServerTemplate, SERVER_ENTRY, serverEnv } from './server-template.ts';

/**
 * The e2e run's shared server (playwright.config.ts `webServer.command`, run by Node's type
 * stripping): makes the run's template data directory at `E2E_TEMPLATE_DIR` (migrated and seeded
 * once; every spec's own server copies it), then serves the production build on `PORT` from a copy.
 * Stops its server on SIGTERM/SIGINT.
 */
const templateDir = process.env.E2E_TEMPLATE_DIR;
const port = Number(process.env.PORT);
const custodySecret = process.env.CUSTODY_WEBHOOK_SECRET ?? '';
if (!templateDir || !Number.isInteger(port)) throw new Error('E2E_TEMPLATE_DIR and PORT are required');

if (!existsSync(`${templateDir}/pglite`)) await prepareServerTemplate(templateDir, custodySecret);
const child = spawn(process.execPath, [SERVER_ENTRY], {
  env: serverEnv(port, copyServerTemplate(templateDir, 'shared'), custodySecret),
  stdio: 'inherit',
});
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => child.kill(signal));
child.on('exit', (code) => process.exit(code ?? 0));
