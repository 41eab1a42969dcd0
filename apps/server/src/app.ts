import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import helmet from 'helmet';
import type { Registry } from 'prom-client';
import { serializerCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.ts';
import { createAdminModule } from './modules/admin/admin.module.ts';
import { createSettingsWorkflow } from './modules/admin/admin.settings-workflow.ts';
import { createCalendarModule } from './modules/calendar/calendar.module.ts';
import { createApiKeysModule } from './modules/apikeys/apikeys.module.ts';
import { createCardsModule } from './modules/cards/cards.module.ts';
import { createChainModule } from './modules/chain/chain.module.ts';
import { createCorporateModule } from './modules/corporate/corporate.module.ts';
import { createExchangeModule } from './modules/exchange/exchange.module.ts';
import { createFundsModule } from './modules/funds/funds.module.ts';
import type { ExchangeService } from './modules/exchange/exchange.service.ts';
import { createIdentityModule } from './modules/identity/identity.module.ts';
import { findCountry } from './modules/identity/identity.countries.ts';
import type { IdentityService } from './modules/identity/identity.service.ts';
import { createKycModule } from './modules/kyc/kyc.module.ts';
import { createLedgerModule } from './modules/ledger/ledger.module.ts';
import { createLiabilitiesModule } from './modules/liabilities/liabilities.module.ts';
import { createStatementsModule } from './modules/statements/statements.module.ts';
import { createSiteModule } from './modules/site/site.module.ts';
import { createSupportModule } from './modules/support/support.module.ts';
import { createMarketModule } from './modules/market/market.module.ts';
import type { MarketService } from './modules/market/market.service.ts';
import { createNoticesModule } from './modules/notices/notices.module.ts';
import { createPaymentsModule } from './modules/payments/payments.module.ts';
import { createLoansModule } from './modules/loans/loans.module.ts';
import { createTrustModule } from './modules/trust/trust.module.ts';
import type { NoticeService } from './modules/notices/notices.service.ts';
import { createWalletModule } from './modules/wallet/wallet.module.ts';
import type { AppModule } from './platform/app-module.ts';
import type { Database } from './platform/db/client.ts';
import { registerAuditTrail } from './platform/http/audit.ts';
import { webAppScriptHashSources } from './platform/http/csp.ts';
import { type AuthProvider, registerAuth } from './platform/http/auth.ts';
import { rememberRawBody } from './platform/http/raw-body.ts';
import { registerCsrfGuard } from './platform/http/csrf.ts';
import { answerFrameworkError, registerErrorHandling } from './platform/http/error-handler.ts';
import { registerWebApp } from './platform/http/web-app.ts';
import { openApiTransform, openApiTransformObject } from './platform/http/openapi.ts';
import { zodValidatorCompiler } from './platform/http/validation.ts';
import { JobScheduler } from './platform/jobs/scheduler.ts';
import {
  metricsExposureOf,
  registerMailMetrics,
  registerMetrics,
  registerReadRoutingMetrics,
} from './platform/observability/metrics.ts';
import { registerReadAfterWrite } from './platform/http/read-after-write.ts';
import { registerRateLimit } from './platform/ratelimit/rate-limit.ts';
import type { PriceOracle } from './platform/prices/aggregator.ts';
import { createPriceOracle } from './platform/prices/factory.ts';
import { registerPriceMetrics } from './platform/prices/metrics.ts';
import { type Clock, startedClock, systemClock } from './platform/clock/clock.ts';
import { createIdempotencyStore } from './platform/db/idempotency.ts';
import { idempotencyPurgeJob } from './platform/db/idempotency.jobs.ts';
import { startServerInstance } from './platform/db/instance.ts';

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
  /**
   * The app's one source of the current instant, handed to every module (docs/clock.md). Default:
   * a clock started at `config.testClockAt` (TEST_CLOCK_AT) when set, else the system clock.
   */
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
    /** The app's one source of the current instant (docs/clock.md); tests read it to date their expectations. */
    clock: Clock;
  }
}

/**
 * The Content-Security-Policy the built web app satisfies: scripts only from our origin, plus the
 * inline scripts of the built `index.html` by their hashes (`scriptHashSources`, the boot script:
 * platform/http/csp.ts), no eval; inline styles are allowed (the page's first styles are inlined,
 * and Ant Design's components set style attributes).
 */
function contentSecurityPolicy(scriptHashSources: string[]) {
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'", ...scriptHashSources],
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
}

/**
 * Build the Fastify application (fastify/demo order): external plugins, then app-wide hooks,
 * then module routes under /api, then the web app with its SPA fallback. The steps, in this order:
 * `createHttpApp` (Fastify, parsers, security headers, OpenAPI), `createPlatform` (errors, CSRF,
 * metrics, clock, idempotency, prices), the modules in dependency order (`createModules`, each
 * handed only modules created before it: docs/architecture.md "One module shape"), then the
 * decorations, auth and audit, and `registerModules` (routes, jobs, start/stop, holdings checkers).
 */
export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const app = await createHttpApp(deps);
  const platform = await createPlatform(app, deps);
  const modules = createModules(app, deps, platform);
  decorateServices(app, modules, platform.clock);
  registerMailMetrics(platform.metrics, modules.identity.outbox);
  registerAuth(app, deps.authProvider ?? modules.identity.auth, modules.admin.service.access, modules.apiKeys.service);
  registerAuditTrail(app, modules.admin.service.access);
  await registerRateLimit(app, { redisUrl: config.redisUrl, nameSpace: deps.rateLimitNameSpace });
  registerProbes(app, database);
  await registerModules(app, deps, modules, platform.clock);
  await registerWebApp(app, config.webDistDir);
  return app;
}

/** Fastify with the request id, the JSON parser, zod validation, security headers, cookies and the OpenAPI document. */
async function createHttpApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger: deps.logger ?? { level: config.logLevel },
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && /^[\w-]{1,64}$/.test(incoming) ? incoming : randomUUID();
    },
    trustProxy: config.isProduction,
    bodyLimit: 1_048_576,
    // The router's own refusals (bad URL encoding, over-long path parameter) in the envelope too.
    frameworkErrors: answerFrameworkError,
  });
  // An empty JSON body (POST /message/{id}/read, logout …) is read as no body; anything else is parsed
  // by Fastify's default parser, which refuses prototype-poisoning keys.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    rememberRawBody(request, text);
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
  const securityHeaders = helmet({
    contentSecurityPolicy: contentSecurityPolicy(webAppScriptHashSources(config.webDistDir)),
    hsts: config.isProduction,
    crossOriginEmbedderPolicy: false,
  });
  app.addHook('onRequest', (request, reply, done) => {
    securityHeaders(request.raw, reply.raw, (error?: unknown) => done(error instanceof Error ? error : undefined));
  });
  await app.register(fastifyCookie, { secret: deps.sessionSecret });
  await app.register(fastifySwagger, {
    openapi: {
      info: {
        title: 'Meridian API',
        version: '0.1.0',
        description:
          'Every answer is the envelope { statusCode, content, message }. Routes with `x-api-key-scope` also accept a developer API key: HMAC-SHA256-signed requests (docs/api.md).',
      },
      components: {
        securitySchemes: {
          cookieAuth: { type: 'apiKey', in: 'cookie', name: 'meridian_sid' },
          apiKey: { type: 'apiKey', in: 'header', name: 'X-MERIDIAN-APIKEY' },
          apiTimestamp: { type: 'apiKey', in: 'header', name: 'X-MERIDIAN-TIMESTAMP' },
          apiSignature: { type: 'apiKey', in: 'header', name: 'X-MERIDIAN-SIGNATURE' },
          operatorCookie: { type: 'apiKey', in: 'cookie', name: 'meridian_admin' },
          operatorBearer: { type: 'http', scheme: 'bearer' },
        },
      },
    },
    transform: openApiTransform,
    transformObject: openApiTransformObject,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  return app;
}

/** What every module may be handed: the metrics registry, the app's clock and the price oracle. */
interface Platform {
  metrics: Registry;
  clock: Clock;
  oracle: PriceOracle;
}

/** The app-wide hooks (errors, CSRF, metrics, read-after-write), the clock, the idempotency store and the prices. */
async function createPlatform(app: FastifyInstance, deps: AppDeps): Promise<Platform> {
  const { config, database } = deps;
  registerErrorHandling(app);
  registerCsrfGuard(app);
  const metrics = registerMetrics(app, database, metricsExposureOf(config));
  if (database.readRouter) {
    // Replication timing is physical: the servers' clocks, never the app's (test) clock.
    registerReadAfterWrite(app, () => systemClock.now().getTime());
    registerReadRoutingMetrics(metrics, database.readRouter);
  }
  app.decorate('metricsRegistry', metrics);
  const clock = deps.clock ?? (config.testClockAt ? startedClock(config.testClockAt) : systemClock);
  // Every `isIdempotent` route runs through this one store (docs/decisions/0009-idempotency.md); its
  // claims name this process's instance, released by the database when the process dies (0017).
  const instance = await startServerInstance(database);
  app.addHook('onClose', async () => instance.stop());
  app.decorate('idempotency', createIdempotencyStore({ db: database.db, clock, instance }));
  let oracle = deps.prices;
  const onSourceFailure = registerPriceMetrics(metrics, () => oracle);
  oracle ??= createPriceOracle(config.prices, { clock, logger: app.log, onSourceFailure });
  return { metrics, clock, oracle };
}

/** The modules of the app by name (`createModules`). */
type Modules = ReturnType<typeof createModules>;

/**
 * The modules, in dependency order: each is handed only modules created before it
 * (docs/architecture.md "One module shape"). Three steps: the user-facing foundations, the
 * products (with the one settings workflow their four-eyes kinds register with), the rest.
 */
function createModules(app: FastifyInstance, deps: AppDeps, platform: Platform) {
  const base = createBaseModules(app, deps, platform);
  const products = createProductModules(app, deps, platform, base);
  return { ...base, ...products, ...createReportingModules(app, deps, platform, { ...base, ...products }) };
}

/** identity, ledger, market, notices, exchange, trust, kyc, corporate and payments. */
function createBaseModules(app: FastifyInstance, deps: AppDeps, { clock, oracle }: Platform) {
  const { config, database } = deps;
  const identity = createIdentityModule({
    database,
    clock,
    sessionSecret: deps.sessionSecret,
    isProduction: config.isProduction,
    isDevMailboxEnabled: !config.isProduction,
    smtpUrl: config.smtpUrl,
    publicUrl: config.publicUrl,
    humanCheckMaxCounter: config.humanCheckMaxCounter,
    webauthn: config.webauthn,
    codeResendAfterSeconds: config.codeResendAfterSeconds,
    log: (message, detail, level) => app.log[level ?? 'info'](detail, message),
  });
  const ledger = createLedgerModule({ database });
  const market = createMarketModule({ config, database, oracle, clock, logger: app.log });
  const notices = createNoticesModule({
    config,
    database,
    clock,
    identity: identity.service,
    mailer: identity.mailer,
    log: app.log,
  });
  const prices = market.service.prices;
  const exchange = createExchangeModule({
    database,
    identity: identity.service,
    prices,
    clock,
    notices: notices.service,
    log: app.log,
  });
  const trust = createTrustModule({
    database,
    identity: identity.service,
    notices: notices.service,
    outbox: identity.outbox,
    clock,
    log: app.log,
  });
  const kyc = createKycModule({
    config,
    database,
    clock,
    identity: identity.service,
    notices: notices.service,
    isKnownCountry: (code) => findCountry(code) !== undefined,
  });
  const corporate = createCorporateModule({
    database,
    kyc: kyc.service,
    identity: identity.service,
    notices: notices.service,
    clock,
  });
  const payments = createPaymentsModule({ database, clock, kyc: kyc.service, notices: notices.service });
  return { identity, ledger, market, notices, exchange, trust, kyc, corporate, payments };
}

/**
 * The settings workflow, then funds, loans, cards, wallet, chain and admin: the funds, loans, cards
 * and admin modules register their four-eyes kinds with the one workflow
 * (docs/decisions/0015-settings-workflow.md).
 */
function createProductModules(
  app: FastifyInstance,
  deps: AppDeps,
  platform: Platform,
  base: ReturnType<typeof createBaseModules>,
) {
  const { config, database } = deps;
  const { clock, metrics } = platform;
  const { identity, notices, market, trust, corporate } = base;
  const prices = market.service.prices;
  const settingsWorkflow = createSettingsWorkflow({ db: database.db, now: () => clock.now() });
  const funds = createFundsModule({
    database,
    clock,
    prices,
    identity: identity.service,
    notices: notices.service,
    bankAccounts: base.payments.service,
    settingsWorkflow,
    log: app.log,
  });
  const loans = createLoansModule({
    database,
    settingsWorkflow,
    prices,
    identity: identity.service,
    notices: notices.service,
    currentFund: funds.service,
    clock,
    isDevPriceEnabled: !config.isProduction,
    log: app.log,
  });
  const cards = createCardsModule({
    config,
    database,
    settingsWorkflow,
    identity: identity.service,
    prices,
    notices: notices.service,
    corporate: corporate.service,
    clock,
    log: app.log,
  });
  const wallet = createWalletModule({
    config,
    database,
    clock,
    identity: identity.service,
    prices,
    notices: notices.service,
    trustHoldings: trust.service,
    loanHoldings: loans.service,
    cardHoldings: cards.service,
    log: app.log,
  });
  // Deposit sources: the EVM chain watcher when EVM_RPC_URL is set, the custody webhook otherwise.
  const chain = createChainModule({ config, database, clock, wallet: wallet.service, prices, metrics, log: app.log });
  const admin = createAdminModule({
    database,
    settingsWorkflow,
    clock,
    secret: deps.sessionSecret,
    ipAllowlist: config.adminIpAllowlist,
    isProduction: config.isProduction,
    wallet: wallet.service,
    exchange: base.exchange.service,
    kyc: base.kyc.service,
    identity: identity.service,
    notices: notices.service,
    market: market.service,
    log: app.log,
  });
  return { funds, loans, cards, wallet, chain, admin };
}

/** liabilities, calendar, apikeys, statements, site and support: they read the modules before them. */
function createReportingModules(
  app: FastifyInstance,
  deps: AppDeps,
  { clock }: Platform,
  modules: ReturnType<typeof createBaseModules> & ReturnType<typeof createProductModules>,
) {
  const { config, database } = deps;
  const { identity, trust, cards, funds, loans, kyc, wallet } = modules;
  const liabilities = createLiabilitiesModule({
    database,
    log: app.log,
    accountHolders: [
      { ownerKind: 'trust', holdersOf: (tx) => trust.service.settlorsByTrustId(tx) },
      { ownerKind: 'card', holdersOf: (tx) => cards.service.holdersByCardId(tx) },
    ],
  });
  const calendar = createCalendarModule({
    database,
    secret: deps.sessionSecret,
    publicUrl: config.publicUrl,
    clock,
    funds: funds.service,
    loans: loans.service,
    trust: trust.service,
    kyc: kyc.service,
    identity: identity.service,
  });
  const apiKeys = createApiKeysModule({
    config,
    database,
    identity: identity.service,
    wallet: wallet.service,
    nameSpace: deps.rateLimitNameSpace,
    now: () => clock.now().getTime(),
  });
  const statements = createStatementsModule({
    database,
    clock,
    prices: modules.market.service.prices,
    cards: cards.service,
    loans: loans.service,
    trusts: trust.service,
    log: app.log,
  });
  const site = createSiteModule({ funds: funds.service, clock, site: config.site });
  const support = createSupportModule({
    database,
    identity: identity.service,
    notices: modules.notices.service,
    clock,
  });
  return { liabilities, calendar, apiKeys, statements, site, support };
}

/** The app is decorated with each module's service (other modules in process, CLIs and tests). */
function decorateServices(app: FastifyInstance, modules: Modules, clock: Clock): void {
  app.decorate('clock', clock);
  app.decorate('identity', modules.identity.service);
  app.decorate('market', modules.market.service);
  app.decorate('notices', modules.notices.service);
  app.decorate('exchange', modules.exchange.service);
  app.decorate('wallet', modules.wallet.service);
  app.decorate('chain', modules.chain.service);
  app.decorate('admin', modules.admin.service);
  app.decorate('kyc', modules.kyc.service);
  app.decorate('payments', modules.payments.service);
  app.decorate('funds', modules.funds.service);
  app.decorate('trust', modules.trust.service);
  app.decorate('liabilities', modules.liabilities.service);
  app.decorate('loans', modules.loans.service);
  app.decorate('cards', modules.cards.service);
  app.decorate('corporate', modules.corporate.service);
  app.decorate('calendar', modules.calendar.service);
  app.decorate('apiKeys', modules.apiKeys.service);
  app.decorate('statements', modules.statements.service);
  app.decorate('support', modules.support.service);
}

/** `/healthz` (the process answers) and `/readyz` (the database answers; 503 otherwise). */
function registerProbes(app: FastifyInstance, database: Database): void {
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
}

/**
 * What each module contributes to the app, in this order (routes keep the order of the OpenAPI
 * document): its routes under /api, its jobs to the scheduler, `start` when the app is ready,
 * `stop` before it closes, and its holdings checker to guard account closure.
 */
async function registerModules(app: FastifyInstance, deps: AppDeps, modules: Modules, clock: Clock): Promise<void> {
  const m = modules;
  const ordered: AppModule<unknown>[] = [
    m.market,
    m.exchange,
    m.identity,
    m.notices,
    m.wallet,
    m.chain,
    m.funds,
    m.admin,
    m.kyc,
    m.payments,
    m.trust,
    m.liabilities,
    m.loans,
    m.cards,
    m.corporate,
    m.calendar,
    m.apiKeys,
    m.statements,
    m.ledger,
    m.site,
    m.support,
  ];
  const scheduler = new JobScheduler(deps.database.db, { clock, logger: app.log });
  app.decorate('scheduler', scheduler);
  app.addHook('onClose', async () => scheduler.stop());
  scheduler.register(idempotencyPurgeJob(app.idempotency, deps.config.idempotencyRetentionMs));
  for (const module of ordered) {
    if (module.routes) await app.register(module.routes, { prefix: '/api' });
    for (const job of module.jobs) scheduler.register(job);
    const { start, stop, holdingsChecker } = module;
    if (start) app.addHook('onReady', start);
    if (stop) app.addHook('preClose', stop);
    if (holdingsChecker) m.identity.service.addHoldingsChecker(holdingsChecker);
  }
}
