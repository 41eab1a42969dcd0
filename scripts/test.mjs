// `npm test`: every check the project has, in order, stopping at the first failure.
// 1. make sure a browser for the end-to-end tests exists (Debian's chromium; no test tool downloads one);
// 2. typecheck and lint; 3. unit and API tests (PGlite, and PostgreSQL when TEST_DATABASE_URL is set);
// 4. production build and the JavaScript size budget; 5. Playwright end-to-end tests against the built app.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const STARTED_AT_MS = Date.now();
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function run(label, command, args, options = {}, onFailure = () => {}) {
  const started = Date.now();
  console.log(`\n▶ ${label}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    onFailure();
    console.error(`✖ ${label} failed after ${seconds}s (exit ${result.status ?? result.signal})`);
    process.exit(result.status || 1);
  }
  console.log(`✔ ${label} (${seconds}s)`);
}

/** Debian packages the browser tests need: the browser, and CJK fonts so zh-HK pages render text. */
function missingPackages() {
  const missing = [];
  if (!existsSync(CHROMIUM)) missing.push('chromium');
  const hasDpkg = spawnSync('sh', ['-c', 'command -v dpkg-query'], { stdio: 'ignore' }).status === 0;
  if (
    hasDpkg &&
    spawnSync('dpkg-query', ['-W', '-f=${Status}', 'fonts-noto-cjk'], { encoding: 'utf8' }).stdout?.includes(
      'install ok installed',
    ) !== true
  ) {
    missing.push('fonts-noto-cjk');
  }
  return missing;
}

function ensureChromium() {
  const packages = missingPackages();
  if (packages.length === 0) return;
  if (existsSync(CHROMIUM) && !packages.includes('chromium')) {
    // Only fonts are missing: install them when we can, go on without them otherwise.
    if (spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status !== 0) return;
  }
  const hasAptGet = spawnSync('sh', ['-c', 'command -v apt-get'], { stdio: 'ignore' }).status === 0;
  if (!hasAptGet) {
    console.error(
      `No Chromium at ${CHROMIUM} and no apt-get to install it.\n` +
        'Install Chromium with your package manager (e.g. `dnf install chromium`, `brew install --cask chromium`)\n' +
        'and set CHROMIUM_PATH to its executable, then run `npm test` again.',
    );
    process.exit(1);
  }
  const apt = process.getuid?.() === 0 ? ['apt-get'] : ['sudo', 'apt-get'];
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  run('apt-get update', apt[0], [...apt.slice(1), 'update', '-qq'], { env });
  run(`install ${packages.join(' ')}`, apt[0], [...apt.slice(1), 'install', '-y', '-qq', ...packages], { env });
}

ensureChromium();
run('typecheck', 'npm', ['run', 'typecheck']);
run('lint', 'npm', ['run', 'lint']);
run('unit and API tests', 'npx', ['vitest', 'run']);
run('build', 'npm', ['run', 'build']);
run('JavaScript size budget', 'node', ['scripts/bundle-budget.mjs']);
const e2eDurations = () => spawnSync('node', ['scripts/e2e-durations.mjs'], { stdio: 'inherit' });
run('end-to-end tests', 'npm', ['run', 'test:e2e'], {}, e2eDurations);
e2eDurations();
console.log(`\n✔ every stage passed in ${((Date.now() - STARTED_AT_MS) / 60_000).toFixed(1)} min`);
