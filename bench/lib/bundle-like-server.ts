import { mkdir, mkdtemp } from 'node:fs/promises';
import path from 'node:path';

/**
 * Bundle the bench file `entry` the way `apps/server/build.mjs` bundles `src/main.ts` (esbuild, ESM
 * for Node, npm packages external, the workspace contracts bundled in), into a new scratch directory
 * `apps/server/dist/bench-<label>-*`, so that its npm packages resolve from the same place as
 * production's `dist/main.js` and it runs under plain `node` as `npm start` runs the server.
 * esbuild is imported only here, when called: a bench that runs itself bundled does not load it.
 * @returns the bundle's path and its directory, which the caller removes.
 */
export async function bundleLikeServer(entry: string, label: string): Promise<{ outfile: string; outDir: string }> {
  const { build } = await import('esbuild');
  const benchDir = path.join(import.meta.dirname, '..');
  const serverDir = path.join(benchDir, '..', 'apps', 'server');
  await mkdir(path.join(serverDir, 'dist'), { recursive: true });
  const outDir = await mkdtemp(path.join(serverDir, 'dist', `bench-${label}-`));
  const outfile = path.join(outDir, `${path.basename(entry, '.ts')}.js`);
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    packages: 'external',
    logLevel: 'warning',
    plugins: [
      {
        name: 'bundle-workspace-contracts',
        setup(b) {
          b.onResolve({ filter: /^@meridian\/contracts\// }, (resolveArgs) => ({
            path: path.join(
              benchDir,
              '..',
              'packages',
              'contracts',
              'src',
              `${resolveArgs.path.replace('@meridian/contracts/', '')}.ts`,
            ),
          }));
        },
      },
    ],
  });
  return { outfile, outDir };
}
