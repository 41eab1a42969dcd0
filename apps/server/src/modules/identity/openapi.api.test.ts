import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';

/** The identity contracts render into the generated OpenAPI document (docs/architecture.md "Request path"). */
describe('identity: OpenAPI', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('documents the user/* routes with their bodies', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(response.statusCode).toBe(200);
    const paths = response.json().paths as Record<string, Record<string, { requestBody?: unknown }>>;
    expect(paths['/api/user/login']?.post?.requestBody).toBeDefined();
    expect(paths['/api/user/register']?.post?.requestBody).toBeDefined();
    expect(paths['/api/user/config/mfa/key']?.delete).toBeDefined();
    expect(paths['/api/dev/mailbox']).toBeUndefined();
  });
});
