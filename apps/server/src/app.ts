import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fastifyCookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import helmet from 'helmet';
import type { Registry } from 'prom-client';
import { jsonSchemaTransform, serializerCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { exchangeRoutes } from './modules/exchange/exchange.routes.ts';
import { ExchangeService } from './modules/exchange/exchange.service.ts';
import { MarketPrices } from './modules/market/market.prices.ts';
import { MarketService } from './modules/market/market.service.ts';
import { marketRoutes } from './modules/market/market.routes.ts';
import { createIdentityModule } from './modules/identity/identity.module.ts';
import { SESSION_CHANNEL } from './modules/identity/identity.session-cache.ts';
import { identityRoutes } from './modules/identity/identity.routes.ts';
import type { IdentityService } from './modules/identity/identity.service.ts';
import type { NoticeService } from './modules/notices/notices.service.ts';
import { securityEventNotice, swapDoneNotice } from './modules/notices/notices.events.ts';
import { registerNotices } from './modules/notices/notices.wiring.ts';
import { ledgerHoldingsChecker } from './modules/ledger/ledger.service.ts';
import { createAdminModule } from './modules/admin/admin.module.ts';
import { createWalletModule } from './modules/wallet/wallet.module.ts';
import { walletRoutes } from './modules/wallet/wallet.routes.ts';
import type { Database } from './platform/db/client.ts';
import { type AuthProvider, registerAuth } from './platform/http/auth.ts';
import { registerCsrfGuard } from './platform/http/csrf.ts';
import { registerErrorHandling, sendApiNotFound } from './platform/http/error-handler.ts';
import { zodValidatorCompiler } from './platform/http/validation.ts';
import { JobScheduler } from './platform/jobs/scheduler.ts';
import { metricsExposureOf, registerMailMetrics, registerMetrics } from './platform/observability/metrics.ts';
import { registerRateLimit } from './platform/ratelimit/rate-limit.ts';
import type { PriceOracle } from './platform/prices/aggregator.ts';
import { createPriceOracle } from './platform/prices/factory.ts';
import { registerPriceMetrics } from './platform/prices/metrics.ts';
import { type Clock, systemClock } from './platform/prices/types.ts';

/** What `buildApp` needs; tests pass their own database and configuration. */
export interface AppDeps {
  config: Config;
  database: Database;
  /** The session secret resolved by `main.ts` (from the environment or the data directory). */
  sessionSecret: string;
  /** Resolves sessions and checks sensitive actions; supplied by the identity module. */
  authProvider?: AuthProvider;
  /** Fastify logger option; tests pass `false`. */
  logger?: FastifyServerOptions['logger'];
  /** The wall clock of prices and jobs; tests pass a fake one. */
  clock?: Clock;
  /** Prices; default: the sources of `config.prices` (PRICE_SOURCES). */
  prices?: PriceOracle;
  /** Key prefix of the rate-limit counters in Redis (tests give each app its own). */
  rateLimitNameSpace?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The Prometheus registry (`main.ts` serves it on METRICS_PORT when set). */
    metricsRegistry: Registry;
    /** The job scheduler: `main.ts` starts it; it stops when the app closes. */
    scheduler: JobScheduler;
    /** The market module's service (prices for other in-process callers and tests). */
    market: MarketService;
    /** The exchange module's service (quotes, swaps, flash exchange). */
    exchange: ExchangeService;
    /** The notification service other modules call to message a user. */
    notices: NoticeService;
    /** Identity and security: sessions, sensitive-action checks, withdrawal holds, KYC level. */
    identity: IdentityService;
  }
}

/**
 * The Content-Security-Policy the built web app satisfies: scripts only from our origin (no inline
 * script, no eval); Ant Design injects its CSS-in-JS style tags, so inline styles are allowed.
 */
const CONTENT_SECURITY_POLICY = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'", "'unsafe-inline'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    fontSrc: ["'self'", 'data:'],
    connectSrc: ["'self'"],
    workerSrc: ["'self'"],
    manifestSrc: ["'self'"],
    objectSrc: ["'none'"],
    baseUri: ["'self'"],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
  },
};

/**
 * Build the Fastify application (fastify/demo order): external plugins, then app-wide hooks,
 * then module routes under /api, then the web app with its SPA fallback.
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const app = Fastify({
    logger: deps.logger ?? { level: config.logLevel },
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    },
    trustProxy: config.isProduction,
    bodyLimit: 1_048_576,
  });
  // An empty JSON body (POST /message/{id}/read, logout …) is read as no body; anything else is parsed
  // by Fastify's default parser, which refuses prototype-poisoning keys.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') return done(null, undefined);
    parseJson(request, text, done);
  });
  app.setValidatorCompiler(zodValidatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });

  // Security headers (helmet) on every answer. The middleware is built once: @fastify/helmet built
  // it again for every request (3 % of the server's time under bench:swap).
  const securityHeaders = helmet({ contentSecurityPolicy: CONTENT_SECURITY_POLICY, hsts: config.isProduction, crossOriginEmbedderPolicy: false });
  app.addHook('onRequest', (request, reply, done) => {
    securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined));
  });
  await app.register(fastifyCookie, { secret: deps.sessionSecret });
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Meridian API', version: '0.1.0', description: 'Every answer is the envelope { statusCode, content, message }.' },
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  registerErrorHandling(app);
  registerCsrfGuard(app);
  const metrics = registerMetrics(app, database, metricsExposureOf(config));
  app.decorate('metricsRegistry', metrics);
  const identity = createIdentityModule({
    database,
    sessionSecret: deps.sessionSecret,
    isProduction: config.isProduction,
    isDevMailboxEnabled: !config.isProduction,
    smtpUrl: config.smtpUrl,
    publicUrl: config.publicUrl,
    humanCheckMaxCounter: config.humanCheckMaxCounter,
    log: (message, detail, level) => (level === 'warn' ? app.log.warn(detail, message) : app.log.info(detail, message)),
  });
  registerMailMetrics(metrics, identity.outbox);
  app.decorate('identity', identity.service);
  registerAuth(app, deps.authProvider ?? identity.auth);
  await registerRateLimit(app, { redisUrl: config.redisUrl, nameSpace: deps.rateLimitNameSpace });

  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await database.ping();
      return { status: 'ready', database: database.kind };
    } catch (error) {
      app.log.warn({ err: error }, 'readiness check failed');
      return reply.status(503).send({ status: 'unavailable', database: database.kind });
    }
  });

  const clock = deps.clock ?? systemClock;
  let oracle = deps.prices;
  const onSourceFailure = registerPriceMetrics(metrics, () => oracle);
  oracle ??= createPriceOracle(config.prices, { clock, logger: app.log, onSourceFailure });
  const market = new MarketService(database.db, new MarketPrices(database.db, oracle, { clock, logger: app.log }));
  const scheduler = new JobScheduler(database.db, { clock, logger: app.log });
  for (const job of market.prices.jobs()) scheduler.register(job);
  for (const job of identity.service.jobs()) scheduler.register(job);
  for (const job of identity.jobs) scheduler.register(job);
  app.decorate('scheduler', scheduler);
  app.decorate('market', market);
  app.addHook('onClose', async () => scheduler.stop());
  await app.register(marketRoutes(market), { prefix: '/api' });
  // Exchange: firm quotes and swaps through the ledger, priced by the market module.
  const exchange = new ExchangeService(
    database.db,
    market.prices,
    clock,
    // `notices` is registered below; a swap can only run once the app is ready.
    async (tx, swaps) => void (await app.notices.notifyMany(swaps.map(({ userId, swap }) => swapDoneNotice(userId, swap)), tx)),
    {
      onBatchRetried: (error, size) => app.log.warn({ err: error, size }, 'swap batch failed as a whole; its swaps were retried one by one'),
    },
  );
  app.decorate('exchange', exchange);
  for (const job of exchange.jobs()) scheduler.register(job);
  await app.register(exchangeRoutes(exchange), { prefix: '/api' });
  await app.register(identityRoutes(identity.routes), { prefix: '/api' });

  // Messages are written in the user's language and important ones mailed (identity's mailer).
  const notices = await registerNotices(app, config, database, {
    recipientsOf: (userIds, db) => identity.service.recipientsOf(userIds, db),
    mail: (to, subject, text) => identity.mailer.send({ to, subject, text, tag: 'notice' }),
  });
  app.decorate('notices', notices);
  // Cached sessions (identity): every process drops a user's sessions when any process revokes one,
  // changes the account's status or KYC level (migration 0010's triggers announce it).
  let unlistenSessions: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    unlistenSessions = await database.listen(SESSION_CHANNEL, (userId) => identity.service.forgetSessions(userId));
  });
  app.addHook('preClose', async () => {
    await unlistenSessions?.().catch((error: unknown) => app.log.debug({ err: error }, 'unlisten after the database closed'));
  });
  identity.service.addSecurityEventListener(async (event) => {
    const notice = securityEventNotice(event);
    if (notice) await notices.notify(notice);
  });

  // Wallet: deposits, withdrawals, balances (USD values from the market module's prices).
  const wallet = createWalletModule({
    config,
    database,
    identity: identity.service,
    usdPrice: async (coinCode) => (await market.prices.usdPrice(coinCode)).priceUsd.toFixed(),
    notify: (input) => notices.notify(input),
    log: app.log,
  });
  app.decorate('wallet', wallet.service);
  identity.service.addHoldingsChecker(ledgerHoldingsChecker(database.db));
  await app.register(walletRoutes(wallet.routes), { prefix: '/api' });
  // The back office: operators and their API, moving withdrawals through the wallet's service.
  const admin = createAdminModule({ database, wallet: wallet.service });
  app.decorate('admin', admin.service);
  if (admin.routes) await app.register(admin.routes, { prefix: '/api' });

  await registerWebApp(app, config.webDistDir);
  return app;
}

/**
 * Serve the built web app: hashed assets with long caching, and `index.html` for every other
 * page path (SPA fallback, issue 13 item 7). Unknown /api paths and missing files answer 404.
 */
async function registerWebApp(app: FastifyInstance, webDistDir: string | undefined): Promise<void> {
  const root = webDistDir ? resolve(webDistDir) : undefined;
  const hasWeb = root !== undefined && existsSync(join(root, 'index.html'));
  if (hasWeb) {
    await app.register(fastifyStatic, {
      root,
      wildcard: false,
      index: false,
      // The web build writes .br and .gz beside each text asset; serve them to clients that accept them.
      preCompressed: true,
      setHeaders: (reply, path) => {
        const isHashed = path.includes(`${join(root, 'assets')}`);
        reply.header('cache-control', isHashed ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url === '/api' || request.url.startsWith('/api/');
    // Any GET of a page path answers the app, whatever its Accept header (`curl /some/page` sends
    // */*); a missing file (a path whose last segment has an extension, e.g. an old hashed asset)
    // stays a 404 so a stale script is never answered with HTML.
    const pathname = request.url.split(/[?#]/, 1)[0] ?? '';
    const isFilePath = /\.[A-Za-z0-9]{1,8}$/.test(pathname);
    const isPageRequest = (request.method === 'GET' || request.method === 'HEAD') && (!isFilePath || (request.headers.accept ?? '').includes('text/html'));
    if (!isApi && hasWeb && isPageRequest) {
      return reply.header('cache-control', 'no-cache').sendFile('index.html');
    }
    return sendApiNotFound(request, reply);
  });
}
