// Bundle the server into dist/main.js with esbuild. npm packages stay external (installed by
// npm ci); the workspace contracts package is TypeScript source and is bundled in.
import { build } from 'esbuild';

await build({
  entryPoints: ['src/main.ts'],
  outfile: 'dist/main.js',
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
  logLevel: 'info',
});
