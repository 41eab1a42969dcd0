import { defineConfig } from 'drizzle-kit';

/** drizzle-kit reads every module's tables and the platform's (the idempotency store); `npm run db:generate` writes SQL migrations to ./drizzle. */
export default defineConfig({
  dialect: 'postgresql',
  schema: ['./src/modules/*/*.tables.ts', './src/platform/db/*.tables.ts'],
  out: './drizzle',
});
