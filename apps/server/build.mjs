// Bundle the server into dist/main.js with esbuild. npm packages stay external (installed by
// npm ci); the workspace contracts package is TypeScript source and is bundled in.
// `node build.mjs --outfile <path>` writes the bundle elsewhere: the API tests that start real
// server processes build one per run (test/global-setup.ts), so no start pays for tsx's transpiling.
// The path must sit two levels below the repository's apps/ (like dist/main.js): main.ts finds the
// web build at ../../web/dist from it.
import { build } from 'esbuild';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { outfile: { type: 'string' } } });

await build({
  entryPoints: ['src/main.ts'],
  outfile: values.outfile ?? 'dist/main.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  sourcemap: true,
  packages: 'external',
  alias: {},
  plugins: [
    {
      name: 'bundle-workspace-contracts',
      setup(b) {
        b.onResolve({ filter: /^@meridian\/contracts\// }, async (args) => {
          const file = args.path.replace('@meridian/contracts/', '');
          return { path: new URL(`../../packages/contracts/src/${file}.ts`, import.meta.url).pathname };
        });
      },
    },
  ],
  logLevel: values.outfile ? 'warning' : 'info',
});
