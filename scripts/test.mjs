// `npm test`: every check the project has, in order, stopping at the first failure.
// 1. make sure a browser for the end-to-end tests exists (Debian's chromium; no test tool downloads one);
// 2. typecheck and lint; 3. unit and API tests (PGlite, and PostgreSQL when TEST_DATABASE_URL is set);
// 4. production build and the JavaScript size budget; 5. Playwright end-to-end tests against the built app.
// It prints each stage's time, the slowest unit/API and e2e files, and at the end the stage table
// with the typecheck's time as the machine's yardstick (docs/testing.md, "The time budget").
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

const STARTED_AT_MS = performance.now();
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The whole run's budget on a quiet machine whose typecheck takes about 30 s (docs/testing.md). */
const BUDGET_MINUTES = 20;
/** Past this, the run warns: the suite has grown (or the machine is slow) and the budget is near. */
const WARN_MINUTES = 25;
/** The typecheck time the budget is meant for: the day's yardstick. */
const YARDSTICK_TYPECHECK_SECONDS = 30;

/** label → seconds, in the order the stages ran. */
const stageSeconds = new Map();

function run(label, command, args, options = {}, onFailure = () => {}) {
  const started = performance.now();
  console.log(`\n▶ ${label}: ${command} ${args.join(' ')}`);
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  const seconds = (performance.now() - started) / 1000;
  stageSeconds.set(label, seconds);
  if (result.status !== 0) {
    onFailure();
    console.error(`✖ ${label} failed after ${seconds.toFixed(1)}s (exit ${result.status ?? result.signal})`);
    summarise();
    process.exit(result.status || 1);
  }
  console.log(`✔ ${label} (${seconds.toFixed(1)}s)`);
}

/** The stage table, the yardstick and, past `WARN_MINUTES`, a warning line. */
function summarise() {
  const minutes = (performance.now() - STARTED_AT_MS) / 60_000;
  console.log('\nstage times:');
  for (const [label, seconds] of stageSeconds) console.log(`  ${label.padEnd(28)} ${seconds.toFixed(1).padStart(8)} s`);
  const typecheckSeconds = stageSeconds.get('typecheck');
  if (typecheckSeconds !== undefined) {
    const scale = typecheckSeconds / YARDSTICK_TYPECHECK_SECONDS;
    console.log(
      `yardstick: typecheck ${typecheckSeconds.toFixed(1)} s, ${scale.toFixed(2)}× the ${YARDSTICK_TYPECHECK_SECONDS} s the ${BUDGET_MINUTES}-minute budget is meant for; ` +
        `this run ${minutes.toFixed(1)} min ≈ ${(minutes / scale).toFixed(1)} min on such a machine`,
    );
  }
  if (minutes > WARN_MINUTES)
    console.log(
      `⚠ the whole run took ${minutes.toFixed(1)} min, over ${WARN_MINUTES} (budget ${BUDGET_MINUTES} on a quiet machine): see the slowest files above and docs/testing.md`,
    );
  return minutes;
}

/**
 * Debian packages the tests need: the browser, and CJK fonts so zh-HK pages render text; with
 * PostgreSQL, PgBouncer and HAProxy for the cluster test (docs/scale.md), which fails without them.
 */
function missingPackages() {
  const missing = [];
  if (!existsSync(CHROMIUM)) missing.push('chromium');
  const hasCommand = (name) => spawnSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' }).status === 0;
  if (process.env.TEST_DATABASE_URL) {
    for (const name of ['pgbouncer', 'haproxy']) if (!hasCommand(name)) missing.push(name);
  }
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

function ensurePackages() {
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

ensurePackages();
run('typecheck', 'npm', ['run', 'typecheck']);
// The benchmarks import the server's modules: a change there must not leave a bench broken. Its own
// stage, so the typecheck above stays the machine's yardstick.
run('typecheck (bench)', 'npm', ['run', 'typecheck:bench']);
run('lint', 'npm', ['run', 'lint']);
const vitestDurations = () => spawnSync('node', ['scripts/vitest-durations.mjs'], { stdio: 'inherit' });
run(
  'unit and API tests',
  'npx',
  ['vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=.vitest-report/results.json'],
  {},
  vitestDurations,
);
vitestDurations();
run('build', 'npm', ['run', 'build']);
run('JavaScript size budget', 'node', ['scripts/bundle-budget.mjs']);
const e2eDurations = () => spawnSync('node', ['scripts/e2e-durations.mjs'], { stdio: 'inherit' });
run('end-to-end tests', 'npm', ['run', 'test:e2e'], {}, e2eDurations);
e2eDurations();
const minutes = summarise();
console.log(`\n✔ every stage passed in ${minutes.toFixed(1)} min`);
