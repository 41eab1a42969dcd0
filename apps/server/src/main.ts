import type { Server } from 'node:http';
import { resolve } from 'node:path';
import closeWithGrace from 'close-with-grace';
import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './platform/db/client.ts';
import { findMigrationsDir } from './platform/db/migrate.ts';
import { metricsExposureOf, startMetricsServer } from './platform/observability/metrics.ts';
import { anyExchangeReachable, type PriceSourceName } from './platform/prices/factory.ts';
import { readOrCreateSecret } from './platform/security/secrets.ts';
import { seedDemo } from './seed.ts';

/**
 * Entry point: read the configuration, open and migrate the database, seed demo data outside
 * production, serve, and on SIGINT/SIGTERM finish in-flight requests and close the database.
 */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(78); // EX_CONFIG
    }
    throw error;
  }
  const database = await openDatabase(config.database);
  await database.migrate(findMigrationsDir());
  const sessionSecret = config.sessionSecret ?? readOrCreateSecret(config.dataDir, 'session-secret');
  // Outside production a machine that reaches no exchange replays history instead (docs/prices.md);
  // production never swaps real prices for replayed ones: it refuses to quote (code 134) until one answers.
  if (
    !config.isProduction &&
    !config.prices.sources.includes('replay') &&
    !(await anyExchangeReachable(config.prices))
  ) {
    console.warn(
      `No exchange of PRICE_SOURCES=${config.prices.sources.join(',')} answers; replaying history instead (not in production).`,
    );
    const replayOnly: PriceSourceName[] = ['replay'];
    config = { ...config, prices: { ...config.prices, sources: replayOnly } };
  }
  const app = await buildApp({
    config: { ...config, webDistDir: config.webDistDir ?? resolve(import.meta.dirname, '../../web/dist') },
    database,
    sessionSecret,
  });
  // After the app is built: the demo account is verified through its KYC service (docs/decisions/0011-verification-level.md).
  if (config.seedDemo) await seedDemo(database.db, { kyc: app.kyc, clock: app.clock });

  let metricsServer: Server | undefined;
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await new Promise((done) => (metricsServer ? metricsServer.close(done) : done(undefined)));
    await app.close();
    await database.close();
  });

  await app.listen({ port: config.port, host: config.host });
  const exposure = metricsExposureOf(config);
  if (exposure.port !== undefined) {
    metricsServer = await startMetricsServer(app.metricsRegistry, {
      port: exposure.port,
      host: config.host,
      token: exposure.token,
    });
    app.log.info({ port: exposure.port }, 'metrics served on their own port');
  } else if (!exposure.isOnAppPort) {
    app.log.warn('/metrics is not served: set METRICS_PORT or METRICS_TOKEN to expose it in production');
  }
  // The scheduler samples prices every minute (backfilling the last 24 h first), rolls them up and
  // prunes them; it stops in app.close() above, after its running job finished.
  if (config.jobsEnabled) app.scheduler.start();
  app.log.info({ database: database.kind, url: config.publicUrl }, 'Meridian is serving');
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
