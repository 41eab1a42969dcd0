import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/platform/db/client.ts';
import { findMigrationsDir } from '../src/platform/db/migrate.ts';

/**
 * Prepare a migrated template once per test run, so each test file gets a fresh database cheaply:
 * - PGlite: a migrated in-memory instance dumped to a file that each file loads (≈0.25 s instead of ≈3 s).
 * - PostgreSQL (TEST_DATABASE_URL): a migrated template database that each file copies with
 *   CREATE DATABASE … TEMPLATE.
 */
export default async function setup(project: TestProject) {
  const provide = project.provide.bind(project);
  if (project.name === 'api-postgres') {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error('MERIDIAN_TEST_DB=postgres needs TEST_DATABASE_URL');
    const templateName = `meridian_tpl_${process.pid}`;
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${templateName}`);
    await admin.query(`CREATE DATABASE ${templateName}`);
    const url = new URL(adminUrl);
    url.pathname = `/${templateName}`;
    const template = await openDatabase({ kind: 'postgres', url: url.toString(), poolMax: 1 });
    await template.migrate(findMigrationsDir());
    await template.close();
    provide('postgresTemplate', templateName);
    return async () => {
      await admin.query(`DROP DATABASE IF EXISTS ${templateName}`);
      await admin.end();
    };
  }

  const dir = mkdtempSync(join(tmpdir(), 'meridian-test-'));
  const database = await openDatabase({ kind: 'memory' });
  await database.migrate(findMigrationsDir());
  const dump = await database.pglite!.dumpDataDir('none');
  const path = join(dir, 'template.tar');
  writeFileSync(path, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  provide('pgliteTemplate', path);
  return () => rmSync(dir, { recursive: true, force: true });
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string;
  }
}
