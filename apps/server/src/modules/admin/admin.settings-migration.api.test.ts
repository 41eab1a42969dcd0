import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findMigrationsDir } from '../../platform/db/migrate.ts';
import { journalTags } from '../../platform/db/migration-hashes.ts';

/**
 * The migrations that made `setting_changes` the one table of the settings workflow keep every
 * proposal of the former per-module tables: a database migrated up to just before them holds a
 * proposed and an applied loan change, an applied and a rejected card change (fees and rate table)
 * and a proposed network fee; after them each is a row of `setting_changes` with its kind, its
 * values as JSON, its status, proposer and decider, and `migrated_from` naming the old row. The
 * old tables are gone.
 */
const FIRST_TAG = '0061_settings_workflow';

let client: PGlite;
const dir = findMigrationsDir();
const tags = journalTags(dir);

async function run(tag: string): Promise<void> {
  const text = readFileSync(join(dir, `${tag}.sql`), 'utf8');
  for (const statement of text.split('--> statement-breakpoint')) if (statement.trim()) await client.exec(statement);
}

beforeAll(async () => {
  client = new PGlite();
  const first = tags.indexOf(FIRST_TAG);
  expect(first).toBeGreaterThan(0);
  for (const tag of tags.slice(0, first)) await run(tag);
  await client.exec(`
    INSERT INTO setting_changes (target_kind, target_key, field, before, after, status, proposed_by_id, proposed_by_email, proposed_at)
      VALUES ('network', 'USDT/TRC20', 'withdrawFee', '1', '1.5', 'proposed', 1, 'a@example.com', '2026-11-01T01:00:00Z');
    INSERT INTO loan_setting_changes (before, after, status, proposed_by_id, proposed_by_email, proposed_at, decided_by_id, decided_by_email, decided_at)
      VALUES ('{"initialLtvPct":"70","marginCallLtvPct":"80","liquidationLtvPct":"90","liquidationFeePct":"2"}',
              '{"initialLtvPct":"65","marginCallLtvPct":"75","liquidationLtvPct":"85","liquidationFeePct":"3"}',
              'applied', 1, 'a@example.com', '2026-11-02T01:00:00Z', 2, 'b@example.com', '2026-11-02T02:00:00Z');
    INSERT INTO loan_setting_changes (before, after, status, proposed_by_id, proposed_by_email, proposed_at)
      VALUES ('{"initialLtvPct":"65","marginCallLtvPct":"75","liquidationLtvPct":"85","liquidationFeePct":"3"}',
              '{"initialLtvPct":"60","marginCallLtvPct":"75","liquidationLtvPct":"85","liquidationFeePct":"3"}',
              'proposed', 2, 'b@example.com', '2026-11-04T01:00:00Z');
    INSERT INTO card_setting_changes (kind, before, after, status, proposed_by_id, proposed_by_email, proposed_at, decided_by_id, decided_by_email, decided_at)
      VALUES ('fxRates', '{"EUR":"0.92","GBP":"0.79","JPY":"150"}', '{"EUR":"0.9","GBP":"0.79","JPY":"150"}',
              'applied', 1, 'a@example.com', '2026-11-03T01:00:00Z', 2, 'b@example.com', '2026-11-03T02:00:00Z');
    INSERT INTO card_setting_changes (kind, before, after, status, proposed_by_id, proposed_by_email, proposed_at, decided_by_id, decided_by_email, decided_at)
      VALUES ('fees', '{"physicalFeeUsdt":"10","virtualFeeUsdt":"0"}', '{"physicalFeeUsdt":"12","virtualFeeUsdt":"1"}',
              'rejected', 1, 'a@example.com', '2026-11-05T01:00:00Z', 1, 'a@example.com', '2026-11-05T02:00:00Z');
  `);
  for (const tag of tags.slice(first)) await run(tag);
  // Some sixty migrations, one statement at a time: well under a minute on a quiet machine.
}, 240_000);

afterAll(async () => {
  await client.close();
});

describe('the settings workflow migrations', () => {
  it('move every pending and decided proposal into setting_changes, in the order proposed', async () => {
    const { rows } = await client.query<Record<string, unknown>>(
      `SELECT kind, target_key, before, after, status, proposed_by_email, decided_by_email, decided_at, migrated_from
         FROM setting_changes ORDER BY id`,
    );
    expect(rows).toEqual([
      expect.objectContaining({
        kind: 'network.withdrawFee',
        target_key: 'USDT/TRC20',
        before: { withdrawFee: '1' },
        after: { withdrawFee: '1.5' },
        status: 'proposed',
        migrated_from: null,
      }),
      expect.objectContaining({
        kind: 'loans.riskLevels',
        target_key: '',
        before: { initialLtvPct: '70', marginCallLtvPct: '80', liquidationLtvPct: '90', liquidationFeePct: '2' },
        after: { initialLtvPct: '65', marginCallLtvPct: '75', liquidationLtvPct: '85', liquidationFeePct: '3' },
        status: 'applied',
        proposed_by_email: 'a@example.com',
        decided_by_email: 'b@example.com',
        migrated_from: 'loan_setting_changes:1',
      }),
      expect.objectContaining({
        kind: 'cards.fxRates',
        after: { EUR: '0.9', GBP: '0.79', JPY: '150' },
        status: 'applied',
        decided_at: new Date('2026-11-03T02:00:00Z'),
        migrated_from: 'card_setting_changes:1',
      }),
      expect.objectContaining({
        kind: 'loans.riskLevels',
        status: 'proposed',
        decided_by_email: null,
        migrated_from: 'loan_setting_changes:2',
      }),
      expect.objectContaining({ kind: 'cards.fees', status: 'rejected', migrated_from: 'card_setting_changes:2' }),
    ]);
  });

  it('drop the former tables and columns, and keep the four-eyes check', async () => {
    const { rows } = await client.query<{ name: string }>(
      `SELECT table_name AS name FROM information_schema.tables WHERE table_name IN ('loan_setting_changes', 'card_setting_changes')`,
    );
    expect(rows).toEqual([]);
    const columns = await client.query<{ name: string }>(
      `SELECT column_name AS name FROM information_schema.columns WHERE table_name = 'setting_changes' AND column_name IN ('target_kind', 'field')`,
    );
    expect(columns.rows).toEqual([]);
    await expect(
      client.exec(
        `UPDATE setting_changes SET status = 'applied', decided_by_id = proposed_by_id WHERE status = 'proposed'`,
      ),
    ).rejects.toThrow(/setting_changes_four_eyes/);
  });
});
