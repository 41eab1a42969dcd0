import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { type APIRequestContext, expect } from '@playwright/test';
import { MUTATION, postApi, ROOT } from './helpers.ts';

/**
 * What the specs of level-2 products (funds, trust, bank accounts) and the KYC spec share: the
 * identity documents a test uploads, a compliance operator added to a spec's own server before it
 * starts, `npm run ops -- kyc approve`, and a user taken to level 2 through the API.
 */

/** A 1×1 PNG. */
export const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
/** A minimal one-page PDF. */
export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 72 72]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

/**
 * The `prepare` step of `ownServerTest`: a compliance operator added with `npm run ops -- operators
 * add` on the server's copy of the template before it starts (the command opens the database
 * itself). Resolves with the operator's bearer token (`OPS_TOKEN`).
 */
export async function addComplianceOperator(dataDir: string): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, NODE_ENV: 'test', LOG_LEVEL: 'warn' };
  delete env.DATABASE_URL;
  const added = await promisify(execFile)(
    'npm',
    ['run', '--silent', 'ops', '--', 'operators', 'add', '--email', 'compliance@meridian.test', '--role', 'compliance'],
    { cwd: ROOT, env },
  );
  const opsToken = added.stdout.match(/OPS_TOKEN=(\S+)/)?.[1] ?? '';
  if (!opsToken) throw new Error(`no operator token: ${added.stdout}${added.stderr}`);
  return opsToken;
}

/** `npm run ops -- kyc approve <userId> [--step …]` against the server at `baseUrl`. */
export async function approveWithCli(baseUrl: string, opsToken: string, userId: string, step?: string): Promise<void> {
  const args = ['run', '--silent', 'ops', '--', 'kyc', 'approve', userId, '--url', baseUrl];
  if (step) args.push('--step', step);
  await promisify(execFile)('npm', args, { cwd: ROOT, env: { ...process.env, OPS_TOKEN: opsToken } });
}

/**
 * The signed-in user (`request` carries the session) taken to level 1 through the API: basic KYC as
 * Tai Man Chan (draft, documents, commit) approved with `npm run ops`. Every call must answer 200.
 */
export async function reachLevelOne(
  request: APIRequestContext,
  baseUrl: string,
  opsToken: string,
  userId: string,
): Promise<void> {
  const ok = async (path: string, body: object = {}) => {
    const answer = await postApi(request, path, body);
    expect(answer.statusCode, `${path}: ${answer.message}`).toBe(200);
  };
  const proofDate = new Date(Date.now() - 10 * 86_400_000).toISOString().slice(0, 10);
  await ok('user/info', {
    firstName: 'Tai Man',
    lastName: 'Chan',
    nameChinese: '陳大文',
    dateOfBirth: '1990-05-01',
    nationality: 'HK',
    residence: 'HK',
    idType: 'hkid',
    idNumber: 'A123456(3)',
    address: 'Flat 1, 2 Queen’s Road Central, Hong Kong',
    proofOfAddressDate: proofDate,
  });
  const file = (name: string, mimeType: string, buffer: Buffer) => ({ name, mimeType, buffer });
  const uploaded = await request.post('/api/user/identity/document', {
    headers: { 'x-meridian-client': MUTATION['x-meridian-client'] },
    multipart: {
      idFront: file('front.png', 'image/png', PNG),
      idBack: file('back.png', 'image/png', PNG),
      selfie: file('selfie.png', 'image/png', PNG),
      proofOfAddress: file('bill.pdf', 'application/pdf', PDF),
    },
  });
  expect((await uploaded.json()).statusCode).toBe(200);
  await ok('user/commit');
  await approveWithCli(baseUrl, opsToken, userId);
}

/**
 * The signed-in user (`request` carries the session) taken to level 2 through the API: basic KYC as
 * Tai Man Chan (draft, documents, commit, approval), the investor profile (approval), the AML
 * answers and a W-8BEN tax form. Every call must answer 200.
 */
export async function reachLevelTwo(
  request: APIRequestContext,
  baseUrl: string,
  opsToken: string,
  userId: string,
): Promise<void> {
  const ok = async (path: string, body: object = {}) => {
    const answer = await postApi(request, path, body);
    expect(answer.statusCode, `${path}: ${answer.message}`).toBe(200);
  };
  await reachLevelOne(request, baseUrl, opsToken, userId);
  await ok('user/identity/investor', {
    type: 'individual',
    individual: {
      netWorthUsdBand: 'from100kTo1m',
      annualIncomeUsdBand: 'from50kTo200k',
      investmentExperience: 'oneToFiveYears',
    },
  });
  await ok('user/identity/commit');
  await approveWithCli(baseUrl, opsToken, userId, 'investor');
  await ok('investor/aml', {
    occupation: { status: 'employed', industry: 'technology' },
    employer: 'Example Ltd',
    sourcesOfFunds: ['salary'],
    sourcesOfWealth: ['employment'],
    expectedMonthlyVolumeUsdBand: 'under10k',
    purposes: ['investment'],
    isPoliticallyExposed: false,
    sanctionsCountryLinks: [],
  });
  await ok('investor/tax', { form: 'W8BEN', isUsBorn: false, residences: [{ country: 'HK', tin: 'A1234563' }] });
}
