import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { AppModule } from '../../platform/app-module.ts';
import type { Database } from '../../platform/db/client.ts';
import type { PriceOracle } from '../../platform/prices/aggregator.ts';
import type { Clock } from '../../platform/clock/clock.ts';
import { createUploadStore } from '../../platform/uploads/upload-store.ts';
import { MarketPrices } from './market.prices.ts';
import { marketRoutes } from './market.routes.ts';
import { MarketService } from './market.service.ts';

/** What `buildApp` hands the market module. */
export interface MarketModuleDeps {
  /** Where uploaded banner images are kept (the upload store of `UPLOADS_DIR` or S3, like identity documents). */
  config: Config;
  database: Database;
  /** The live price sources (platform/prices): their median prices every money movement. */
  oracle: PriceOracle;
  clock: Clock;
  logger: FastifyBaseLogger;
}

/**
 * Wire the market: banners (with their uploaded images, in the upload store) and, through `service.prices`, current USD prices, their stored
 * history and the market table; its jobs record the minute, hour and day prices and prune them.
 */
export function createMarketModule(deps: MarketModuleDeps): AppModule<MarketService> {
  const db = deps.database.db;
  const service = new MarketService(
    db,
    new MarketPrices(db, deps.oracle, { clock: deps.clock, logger: deps.logger }),
    deps.clock,
    createUploadStore(deps.config, deps.clock),
  );
  return { service, routes: marketRoutes(service), jobs: service.prices.jobs() };
}
