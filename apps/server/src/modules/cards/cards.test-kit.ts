import { sql } from 'drizzle-orm';
import type { TestApp } from '../../../test/helpers.ts';

const YEAR_MS = 365 * 86_400_000;

/**
 * The default virtual-card promotion (no issuing fee) ends in June 2027 (`DEFAULT_PROMOTION_ENDS_AT`,
 * cards.internal.ts). Tests whose amounts assume a free virtual card extend it to a year after the
 * app's clock, so they hold on any date the run's clock reads (TEST_CLOCK_AT, docs/clock.md).
 */
export async function extendCardPromotion(t: TestApp): Promise<void> {
  const endsAt = new Date(t.app.clock.now().getTime() + YEAR_MS);
  await t.database.db.execute(sql`UPDATE card_settings SET promotion_ends_at = ${endsAt.toISOString()}::timestamptz`);
}
