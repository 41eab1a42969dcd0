import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The web app's layering is enforced by lint (eslint.config.js): shared → features → app, no
 * feature importing another, and every call through its endpoint descriptor. This proves the rules
 * see what a static import rule alone does not: a dynamic `import()` and a path typed by hand.
 */
const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

async function ruleIdsOf(code: string, file: string): Promise<string[]> {
  const eslint = new ESLint({ cwd: REPO_ROOT });
  const [result] = await eslint.lintText(code, { filePath: join(REPO_ROOT, file) });
  return (result?.messages ?? []).map((message) => `${message.line}:${message.ruleId}`);
}

describe('web boundaries', () => {
  it('refuse a dynamic import of the app layer or another feature, and a raw API path', async () => {
    const code = [
      "import { apiClient } from '../../../lib/api-client.ts';",
      "export const a = () => import('../../../app/layout/header/download-popover.tsx');",
      "export const b = () => apiClient.get('user/self');",
      "export const c = () => import('../../wallet/api/wallet-keys.ts');",
      "export const d = () => import('../../../components/download-qr-code.tsx');",
    ].join('\n');
    expect(await ruleIdsOf(code, 'apps/web/src/features/kyc/api/probe.ts')).toEqual([
      '2:no-restricted-syntax',
      '3:no-restricted-syntax',
      '4:import-x/no-restricted-paths',
    ]);
  }, 60_000);

  it('refuse a raw path handed to request, buildUrl or fetch, and accept a descriptor path', async () => {
    const code = [
      "import { buildUrl, request } from '../../../lib/api-client.ts';",
      "import { endpointPath } from '@meridian/contracts/endpoint';",
      "import { identityEndpoints } from '@meridian/contracts/identity';",
      "export const a = () => request('POST', 'user/logout', {});",
      'export const b = () => buildUrl(`user/human-check/challenge`);',
      "export const c = () => fetch('/api/user/self');",
      'export const d = () => buildUrl(endpointPath(identityEndpoints.humanCheckChallenge));',
      "export const e = () => fetch('/assets/manifest.json');",
    ].join('\n');
    expect(await ruleIdsOf(code, 'apps/web/src/features/kyc/api/probe.ts')).toEqual([
      '4:no-restricted-syntax',
      '5:no-restricted-syntax',
      '6:no-restricted-syntax',
    ]);
  }, 60_000);

  it('refuse a dynamic import of a feature from shared code', async () => {
    const code = "export const a = () => import('../features/kyc/api/basic-kyc.ts');";
    expect(await ruleIdsOf(code, 'apps/web/src/lib/probe.ts')).toEqual(['1:no-restricted-syntax']);
    expect(await ruleIdsOf(code, 'apps/web/src/stores/probe.ts')).toEqual(['1:no-restricted-syntax']);
    expect(await ruleIdsOf(code, 'apps/web/src/hooks/probe.ts')).toEqual(['1:no-restricted-syntax']);
  }, 60_000);
});
