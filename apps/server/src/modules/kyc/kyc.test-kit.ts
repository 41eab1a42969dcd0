import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CSRF_HEADER_VALUE, HEADER_CSRF } from '@meridian/contracts/http';
import dayjs from 'dayjs';
import sharp from 'sharp';
import type { Response as InjectResponse } from 'light-my-request';
import { expect } from 'vitest';
import { createTestApp, registerAndLogin, type TestApp, type TestSession } from '../../../test/helpers.ts';

/** One uploaded file of a multipart body: the part name is the document kind. */
export interface KycTestFile {
  fieldName: string;
  fileName: string;
  bytes: Buffer;
}

/**
 * The KYC API tests' harness: the real app on a fresh database with uploads in a temporary
 * directory, a compliance and a viewer operator, sample files, and the calls the tests make.
 */
export interface KycKit {
  t: TestApp;
  png: Buffer;
  pdf: Buffer;
  complianceToken: string;
  viewerToken: string;
  upload(session: TestSession, files: KycTestFile[], locale?: string): Promise<InjectResponse>;
  post(session: TestSession, url: string, payload?: object, locale?: string): Promise<InjectResponse>;
  get(session: TestSession, url: string): Promise<InjectResponse>;
  /** An operator call under `/api/admin` with a bearer token. */
  ops(token: string, method: 'GET' | 'POST', url: string, payload?: object): Promise<InjectResponse>;
  /** A registered user with a complete basic draft (`draft` laid over the valid one) and every document. */
  readyUser(draft?: Record<string, string>): Promise<TestSession>;
  /** A user whose basic KYC was submitted and approved (level 1). */
  verifiedUser(draft?: Record<string, string>): Promise<TestSession>;
  close(): Promise<void>;
}

const BOUNDARY = '----kyc-test-boundary';

/**
 * A complete, valid basic-KYC draft for an HKID holder living in Hong Kong, its proof of address
 * dated 10 days before `now` (the app's clock).
 */
export function validDraft(now: Date): Record<string, string> {
  return {
    firstName: 'Tai Man',
    lastName: 'Chan',
    nameChinese: '陳大文',
    dateOfBirth: '1990-05-01',
    nationality: 'HK',
    residence: 'HK',
    idType: 'hkid',
    idNumber: 'A123456(3)',
    address: 'Flat 1, 2 Queen’s Road Central, Hong Kong',
    proofOfAddressDate: dayjs(now).subtract(10, 'day').format('YYYY-MM-DD'),
  };
}

/** AML answers no scoring rule applies to: low risk, accepted at once. */
export const LOW_RISK_AML_ANSWERS = {
  occupation: { status: 'employed', industry: 'technology' },
  employer: 'Example Ltd',
  sourcesOfFunds: ['salary'],
  sourcesOfWealth: ['employment'],
  expectedMonthlyVolumeUsdBand: 'under10k',
  purposes: ['investment'],
  isPoliticallyExposed: false,
  sanctionsCountryLinks: [],
};

/** An individual investor profile that passes every rule. */
export const INDIVIDUAL_PROFILE = {
  type: 'individual',
  individual: {
    netWorthUsdBand: 'from100kTo1m',
    annualIncomeUsdBand: 'from50kTo200k',
    investmentExperience: 'oneToFiveYears',
  },
};

function multipartBody(files: KycTestFile[]): Buffer {
  const pieces = files.flatMap((file) => [
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.fieldName}"; filename="${file.fileName}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    file.bytes,
    Buffer.from('\r\n'),
  ]);
  return Buffer.concat([...pieces, Buffer.from(`--${BOUNDARY}--\r\n`)]);
}

/** Build the harness (one per test file, in `beforeAll`). */
export async function createKycKit(): Promise<KycKit> {
  const uploadsDir = mkdtempSync(join(tmpdir(), 'kyc-uploads-'));
  const t = await createTestApp({ env: { UPLOADS_DIR: uploadsDir } });
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: 'red' } })
    .png()
    .toBuffer();
  const pdf = Buffer.from(
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  );
  const complianceToken = (await t.app.admin.createOperator('compliance@example.com', 'compliance')).token;
  const viewerToken = (await t.app.admin.createOperator('viewer@example.com', 'support')).token;

  const kit: KycKit = {
    t,
    png,
    pdf,
    complianceToken,
    viewerToken,
    upload: (session, files, locale = 'en-US') =>
      t.app.inject({
        method: 'POST',
        url: '/api/user/identity/document',
        headers: {
          cookie: session.cookie,
          [HEADER_CSRF]: CSRF_HEADER_VALUE,
          'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
          'user-lang': locale,
        },
        payload: multipartBody(files),
      }),
    post: (session, url, payload, locale = 'en-US') =>
      t.app.inject({
        method: 'POST',
        url,
        headers: { ...session.headers, 'user-lang': locale },
        ...(payload ? { payload } : {}),
      }),
    get: (session, url) => t.app.inject({ method: 'GET', url, headers: { cookie: session.cookie } }),
    ops: (token, method, url, payload) =>
      t.app.inject({
        method,
        url: `/api/admin${url}`,
        headers: { authorization: `Bearer ${token}`, ...(payload ? { 'content-type': 'application/json' } : {}) },
        ...(payload ? { payload } : {}),
      }),
    readyUser: async (draft = {}) => {
      const session = await registerAndLogin(t.app);
      expect(
        (await kit.post(session, '/api/user/info', { ...validDraft(t.app.clock.now()), ...draft })).json().statusCode,
      ).toBe(200);
      const documents = [
        { fieldName: 'idFront', fileName: 'front.png', bytes: png },
        { fieldName: 'idBack', fileName: 'back.png', bytes: png },
        { fieldName: 'selfie', fileName: 'selfie.png', bytes: png },
        { fieldName: 'proofOfAddress', fileName: 'bill.pdf', bytes: pdf },
      ];
      expect((await kit.upload(session, documents)).json().statusCode).toBe(200);
      return session;
    },
    verifiedUser: async (draft) => {
      const session = await kit.readyUser(draft);
      expect((await kit.post(session, '/api/user/commit')).json().statusCode).toBe(200);
      expect((await kit.ops(complianceToken, 'POST', `/kyc/${session.userId}/approve`)).json().statusCode).toBe(200);
      return session;
    },
    close: async () => {
      await t.close();
      rmSync(uploadsDir, { recursive: true, force: true });
    },
  };
  return kit;
}
