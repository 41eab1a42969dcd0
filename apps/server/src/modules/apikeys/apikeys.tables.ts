import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { createdAt } from '../../platform/db/columns.ts';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * Developer API keys (docs/api.md). The public key id (`mk_…`) is kept only as its
 * SHA-256 (`key_id_hash`, the look-up) and its first 8 characters (`key_prefix`, for the list); the
 * HMAC secret is sealed with AES-256-GCM under API_KEY_VAULT_KEY (`secret_sealed`: the server must
 * read it back to check signatures). `scopes` ⊆ read, trade, withdraw; `ip_allowlist` holds
 * addresses or CIDR ranges (empty: any). A deleted or revoked key keeps its row with `revoked_at`.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull(),
    label: text('label').notNull(),
    keyIdHash: text('key_id_hash').notNull(),
    keyPrefix: text('key_prefix').notNull(),
    secretSealed: text('secret_sealed').notNull(),
    scopes: text('scopes').array().notNull(),
    ipAllowlist: text('ip_allowlist').array().notNull(),
    createdAt: createdAt(),
    lastUsedAt: at('last_used_at'),
    lastUsedIp: text('last_used_ip'),
    revokedAt: at('revoked_at'),
    /** Why it stopped: 'deleted', 'mfa_off', 'freeze_link'. */
    revokedReason: text('revoked_reason'),
  },
  (table) => [uniqueIndex('api_keys_key_id_hash_key').on(table.keyIdHash), index('api_keys_user_idx').on(table.userId)],
);
