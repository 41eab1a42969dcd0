import { defineConfig } from 'drizzle-kit';

/** drizzle-kit reads every module's tables; `npm run db:generate` writes SQL migrations to ./drizzle. */
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/modules/*/*.tables.ts',
  out: './drizzle',
});
