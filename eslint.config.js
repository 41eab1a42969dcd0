// ESLint flat config. Module boundaries are lint rules, not wishes (after actualbudget and
// bulletproof-react): platform code never imports business modules, a module never reads another
// module's tables, and the web app's imports flow one way: shared → features → app.
import { readdirSync } from 'node:fs';
import js from '@eslint/js';
import { importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const restrict = (patterns) => ['error', { patterns }];
/**
 * `no-restricted-imports` does not see `import()`: the same boundary for dynamic imports, as an
 * ImportExpression selector on the source (`/` written `\u002F`, which a selector's regex needs).
 */
const dynamicImport = (pattern, message) => ({
  selector: `ImportExpression[source.value=/${pattern.replaceAll('/', '\\u002F')}/]`,
  message: `${message} (dynamic import)`,
});
/**
 * The web calls an endpoint through its descriptor (`callEndpoint`), never through a path typed by
 * hand: a string or template literal as the path of `apiClient.*`, `request(method, path)` or
 * `buildUrl(path)` (the client's own functions), or an `/api/…` literal handed to `fetch`.
 */
const RAW_PATH_MESSAGE =
  'Call the endpoint through its descriptor in @meridian/contracts (callEndpoint, endpointPath, or a path constant there), not a raw path: the path, method and schemas then come from one place.';
const LITERAL = '/^(Literal|TemplateLiteral)$/';
const RAW_API_PATHS = [
  `CallExpression[callee.object.name='apiClient'][arguments.0.type=${LITERAL}]`,
  `CallExpression[callee.name='request'][arguments.1.type=${LITERAL}]`,
  `CallExpression[callee.name='buildUrl'][arguments.0.type=${LITERAL}]`,
  "CallExpression[callee.name='fetch'][arguments.0.value=/^\\u002Fapi\\u002F/]",
].map((selector) => ({ selector, message: RAW_PATH_MESSAGE }));
/** The web app's feature folders: each may import only itself among them (bulletproof-react's zones). */
const WEB_FEATURES = readdirSync(new URL('./apps/web/src/features', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/.test-build-*/**',
      'apps/server/drizzle/**',
      'e2e/test-results/**',
      'e2e/playwright-report/**',
      '.vitest-report/**',
      'bench/out/**',
      'data/**',
      'coverage/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      eqeqeq: ['error', 'always'],
      'no-console': 'off',
    },
  },
  {
    // No import cycles anywhere: a cycle hides an order dependency at start-up.
    files: ['**/*.{ts,tsx,mjs,js}'],
    plugins: { 'import-x': importX },
    settings: { 'import-x/extensions': ['.ts', '.tsx', '.js', '.mjs'] },
    rules: { 'import-x/no-cycle': ['error', { ignoreExternal: true }] },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: { 'react-hooks/rules-of-hooks': 'error', 'react-hooks/exhaustive-deps': 'error' },
  },
  {
    files: ['apps/server/src/platform/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict([
        {
          group: ['**/modules/**'],
          message: 'platform/ holds no business rules and never imports from modules/.',
        },
      ]),
    },
  },
  {
    files: ['apps/server/src/modules/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict([
        {
          regex: '^\\.\\./[^/]+/[^/]+\\.tables(\\.ts)?$',
          message: "A module may call another module's service, never its tables.",
        },
      ]),
    },
  },
  {
    // Outside tests (which may seed and check through any module), a module reaches another module
    // only through its public surface: its `*.service.ts` and `*.types.ts` files.
    files: ['apps/server/src/modules/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': restrict([
        {
          regex: '^\\.\\./[^/]+/[^/]+\\.tables(\\.ts)?$',
          message: "A module may call another module's service, never its tables.",
        },
        {
          regex: '^\\.\\./(?!\\.\\./)[^/]+/(?![^/]+\\.(service|types)\\.ts$)[^/]+$',
          message: 'Import another module only through its *.service.ts or *.types.ts.',
        },
      ]),
    },
  },
  {
    files: ['packages/contracts/**/*.ts'],
    rules: {
      'no-restricted-imports': restrict([
        {
          group: ['**/apps/**', '@meridian/server*', '@meridian/web*'],
          message: 'contracts are imported by the apps, never the reverse.',
        },
      ]),
    },
  },
  {
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/lib/api-client.ts'],
    rules: { 'no-restricted-syntax': ['error', ...RAW_API_PATHS] },
  },
  {
    files: [
      'apps/web/src/components/**/*.{ts,tsx}',
      'apps/web/src/lib/**/*.{ts,tsx}',
      'apps/web/src/hooks/**/*.{ts,tsx}',
      'apps/web/src/stores/**/*.{ts,tsx}',
      'apps/web/src/config/**/*.{ts,tsx}',
    ],
    ignores: ['apps/web/src/lib/api-client.ts'],
    rules: {
      'no-restricted-imports': restrict([
        {
          group: ['**/features/**', '**/app/**', '@/features/**', '@/app/**'],
          message:
            'Shared code (components, lib, hooks, stores, config) never imports features or app (bulletproof-react).',
        },
      ]),
      'no-restricted-syntax': [
        'error',
        ...RAW_API_PATHS,
        dynamicImport(
          '/(features|app)/',
          'Shared code (components, lib, hooks, stores, config) never imports features or app',
        ),
      ],
    },
  },
  {
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': restrict([
        {
          group: ['**/app/**', '@/app/**'],
          message: 'Features never import the app layer; the app composes features.',
        },
      ]),
      'no-restricted-syntax': [
        'error',
        ...RAW_API_PATHS,
        dynamicImport('/app/', 'Features never import the app layer; the app composes features'),
        {
          selector: "CallExpression[callee.name='openSecurityCheck']",
          message:
            'Open the security check through useSecuredAction (hooks/use-secured-action.ts) or useModalForm: one way to run the action with the proof and handle its refusal.',
        },
      ],
    },
  },
  {
    // Tests may call a path by hand (the client's own tests do); the static boundaries still hold.
    files: ['apps/web/src/**/*.test.{ts,tsx}'],
    rules: { 'no-restricted-syntax': 'off' },
  },
  {
    // A feature never imports another feature; shared pieces live in components/, lib/, hooks/ or
    // stores/. Paths are resolved, so any spelling of the import is caught.
    files: ['apps/web/src/features/**/*.{ts,tsx}'],
    plugins: { 'import-x': importX },
    rules: {
      'import-x/no-restricted-paths': [
        'error',
        {
          zones: WEB_FEATURES.map((feature) => ({
            target: `./apps/web/src/features/${feature}`,
            from: './apps/web/src/features',
            except: [`./${feature}`],
            message:
              'A feature never imports another feature; move shared pieces to components/, lib/, hooks/ or stores/.',
          })),
        },
      ],
    },
  },
);
