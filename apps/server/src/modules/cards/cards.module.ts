import { randomBytes } from 'node:crypto';
import type { CardTopUpCoin } from '@meridian/contracts/cards';
import type { Config } from '../../config.ts';
import type { AppModule } from '../../platform/app-module.ts';
import type { Database } from '../../platform/db/client.ts';
import type { Clock } from '../../platform/clock/clock.ts';
import { readOrCreateSecret } from '../../platform/security/secrets.ts';
import type { IdentityService } from '../identity/identity.service.ts';
import type { MarketPrices } from '../market/market.service.ts';
import type { NoticeService } from '../notices/notices.service.ts';
import { cardsRoutes } from './cards.routes.ts';
import { SandboxProcessor } from './cards.sandbox.ts';
import { createCardsService, type CardsService } from './cards.service.ts';
import { cardSettingsRoutes } from './cards.settings.routes.ts';
import type { SettingsWorkflow } from '../admin/admin.types.ts';
import { createCardSettings, registerCardSettingKinds } from './cards.settings.ts';

/** What `buildApp` hands the cards module. */
export interface CardsModuleDeps {
  config: Config;
  database: Database;
  /** The back office's four-eyes workflow (admin module): the cards register their fees and rate table. */
  settingsWorkflow: SettingsWorkflow;
  identity: Pick<IdentityService, 'assertNotFrozen'>;
  /** The stablecoin band (a coin is topped up 1:1 while priced at its peg). */
  prices: MarketPrices;
  notices: Pick<NoticeService, 'notify' | 'resolveMessages'>;
  /** Whether a user's PRO account is approved (employee cards) (the corporate module's service, created before the cards). */
  corporate: { isApprovedPro(userId: string): Promise<boolean> };
  clock: Clock;
  log: { info(detail: object, message: string): void; warn(detail: object, message: string): void };
}

/** A secret from the configuration, or generated (memory database: in memory; else DATA_DIR/secrets). */
function secretOf(config: Config, configured: string | undefined, name: string): string {
  if (configured) return configured;
  return config.database.kind === 'memory'
    ? randomBytes(48).toString('base64url')
    : readOrCreateSecret(config.dataDir, name);
}

/**
 * Wire the cards: the built-in sandbox issuer processor (the embedded default,
 * docs/architecture.md "Outside world") connected to the cards service's webhook handler, the routes `card/*` (the
 * holder's calls, the processor's signed webhook, and outside production the sandbox's merchant
 * calls for `npm run card`), one job declining lapsed 3-D Secure confirmations, the holdings
 * checker (a card with a balance forbids closing the account), the back office's card settings
 * (`admin/card-settings*`, `cards.settings.ts`: fees and the rate table with four eyes, the rest
 * audited at once), and at start the settings row.
 */
export function createCardsModule(deps: CardsModuleDeps): AppModule<CardsService> & { sandbox: SandboxProcessor } {
  const webhookSecret = secretOf(deps.config, deps.config.cards.webhookSecret, 'card-webhook-secret');
  const vaultKey = secretOf(deps.config, deps.config.cards.vaultKey, 'card-vault-key');
  const now = () => deps.clock.now();
  const sandbox = new SandboxProcessor({ db: deps.database.db, vaultKey, webhookSecret, now });
  const service = createCardsService({
    db: deps.database.db,
    processor: sandbox,
    webhookSecret,
    identity: { assertNotFrozen: (userId, db) => deps.identity.assertNotFrozen(userId, db) },
    // EURE is EUR e-money redeemable 1:1 at its issuer (Monerium): at par by definition, never
    // priced against USD; the USD stablecoins are at par while the price pipeline holds their peg.
    isAtPar: async (coin) =>
      coin === 'EURE' || (await deps.prices.usdPrice(coin as Exclude<CardTopUpCoin, 'EURE'>)).basis === 'peg',
    notify: (input, tx) => deps.notices.notify(input, tx),
    resolveMessages: (userId, links, resolution, tx) => deps.notices.resolveMessages(userId, links, resolution, tx),
    corporate: deps.corporate,
    settingsHistory: deps.settingsWorkflow,
    now,
    log: deps.log,
  });
  sandbox.connect((raw, signature) => service.handleSignedWebhook(raw, signature));
  const holderRoutes = cardsRoutes({
    cards: service,
    webhookSecret,
    sandbox: deps.config.isProduction ? null : sandbox,
  });
  registerCardSettingKinds(deps.settingsWorkflow, now);
  const settingsRoutes = cardSettingsRoutes(createCardSettings(deps.database.db, now, deps.settingsWorkflow));
  return {
    service,
    sandbox,
    routes: async (app) => {
      await holderRoutes(app);
      await settingsRoutes(app);
    },
    jobs: [
      {
        name: 'cards.confirmations',
        periodMs: 30_000,
        run: async ({ tx, now: at }) =>
          void (await service.expireConfirmations(at, { executor: tx, isProcessorDeferred: true })),
      },
    ],
    holdingsChecker: service.holdingsChecker,
    start: async () => service.seed(),
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The cards service (CLIs and tests). */
    cards: CardsService;
  }
}
