import type { MessageItem } from '@meridian/contracts/notices';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { DbOrTx } from '../../platform/db/client.ts';
import { queryRows } from '../../platform/db/rows.ts';

/** A user's messages of one money event, read through the API in both languages (docs/notices.md "Money events"). */
export interface EventMessages {
  /** How many messages of the user carry the key. */
  count: number;
  'en-US': MessageItem[];
  'zh-HK': MessageItem[];
}

/**
 * The messages of `userId` whose template key is `key`, as `GET /api/notice/message/list` shows
 * them to a reader in en-US and in zh-HK (newest first). The key is read from the table, the texts
 * from the API, so the test sees what the user sees.
 */
export async function eventMessages(
  app: FastifyInstance,
  db: DbOrTx,
  session: { userId: string; cookie: string },
  key: string,
): Promise<EventMessages> {
  const rows = await queryRows<{ id: string }>(
    db,
    sql`SELECT id::text AS id FROM notice_messages WHERE user_id = ${session.userId} AND template->>'key' = ${key}`,
  );
  const ids = new Set(rows.map((row) => row.id));
  const read = async (lang: 'en-US' | 'zh-HK'): Promise<MessageItem[]> => {
    const response = await app.inject({
      method: 'GET',
      url: '/api/notice/message/list?pageSize=100',
      headers: { cookie: session.cookie, 'User-Lang': lang },
    });
    return (response.json().content.list as MessageItem[]).filter((item) => ids.has(item.id));
  };
  return { count: ids.size, 'en-US': await read('en-US'), 'zh-HK': await read('zh-HK') };
}

/** How many messages `userId` has in all (a refused request must leave it unchanged). */
export async function messageCount(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await queryRows<{ n: number }>(
    db,
    sql`SELECT count(*)::int AS n FROM notice_messages WHERE user_id = ${userId}`,
  );
  return row?.n ?? 0;
}
