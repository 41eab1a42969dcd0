import type { Clock } from '../../platform/clock/clock.ts';
import type { AppModule } from '../../platform/app-module.ts';
import type { Database } from '../../platform/db/client.ts';
import type { ExchangeService } from '../exchange/exchange.service.ts';
import type { IdentityService } from '../identity/identity.service.ts';
import type { KycService } from '../kyc/kyc.service.ts';
import type { MarketService } from '../market/market.service.ts';
import type { NoticeService } from '../notices/notices.service.ts';
import type { WalletService } from '../wallet/wallet.service.ts';
import { OperatorAccess } from './admin.access.ts';
import { ManualAdjustments } from './admin.adjustments.ts';
import { backOfficeBannerRoutes } from './admin.banners.routes.ts';
import { backOfficeAdjustmentRoutes } from './admin.adjustments.routes.ts';
import { Broadcasts } from './admin.broadcasts.ts';
import { backOfficeBroadcastRoutes } from './admin.broadcasts.routes.ts';
import { backOfficeDepositRoutes } from './admin.deposits.routes.ts';
import { ProductSettings, registerProductSettingKinds } from './admin.settings.ts';
import type { SettingsWorkflow } from './admin.types.ts';
import { backOfficeSettingsRoutes } from './admin.settings.routes.ts';
import { BackOfficeUsers } from './admin.users.ts';
import { backOfficeUserRoutes } from './admin.users.routes.ts';
import { adminRoutes } from './admin.routes.ts';
import { AdminService } from './admin.service.ts';

/** What `buildApp` hands the admin module. */
export interface AdminModuleDeps {
  database: Database;
  /** The one four-eyes settings workflow (`createSettingsWorkflow`); the fee and spread kinds are registered here. */
  settingsWorkflow: SettingsWorkflow;
  /** The app's clock (docs/clock.md). */
  clock: Clock;
  /** The server secret: seals the operators' TOTP seeds. */
  secret: string;
  /** IPs / CIDR ranges allowed to reach the back office (config `ADMIN_IP_ALLOWLIST`); empty = any. */
  ipAllowlist: readonly string[];
  /** Secure cookies (production). */
  isProduction: boolean;
  /** The wallet, whose withdrawal transitions, limits and screening alerts the operators handle. */
  wallet: WalletService;
  /** Users: search, profile, freeze, 2FA reset; who an adjustment concerns. */
  identity: IdentityService;
  /** Swaps in a user's history and today's totals. */
  exchange: ExchangeService;
  /** Verification steps of a user, the review queue's size. */
  kyc: KycService;
  /** Messages to users (a posted adjustment, broadcasts). */
  notices: NoticeService;
  /** Home-page banners, which the market module owns. */
  market: MarketService;
  log: { warn(detail: object, message: string): void };
}

/**
 * Wire the back office: operator access (sign-in with mandatory TOTP, sessions, script
 * tokens, the audit log: `service.access`, which `buildApp` also hands the platform as its
 * `OperatorAuthProvider` and `AuditWriter`) and the back-office API under `/api/admin` (access,
 * adjustments, users, deposits, broadcasts, banners, product settings). No jobs.
 */
export function createAdminModule(deps: AdminModuleDeps): AppModule<AdminService> {
  const now = () => deps.clock.now();
  const access = new OperatorAccess(deps.database.db, {
    secret: deps.secret,
    ipAllowlist: deps.ipAllowlist,
    now: () => deps.clock.now().getTime(),
  });
  const adjustments = new ManualAdjustments(deps.database.db, deps.identity, deps.notices, deps.log, now);
  const service = new AdminService(deps.database.db, access, deps.wallet, adjustments, deps.database.reads);
  const accessRoutes = adminRoutes(service, deps.wallet, { isSecureCookie: deps.isProduction });
  const adjustmentRoutes = backOfficeAdjustmentRoutes(adjustments);
  const users = new BackOfficeUsers({
    db: deps.database.db,
    identity: deps.identity,
    wallet: deps.wallet,
    exchange: deps.exchange,
    kyc: deps.kyc,
    notices: deps.notices,
    adjustments,
    log: deps.log,
    clock: now,
  });
  const userRoutes = backOfficeUserRoutes(users);
  const depositRoutes = backOfficeDepositRoutes({ wallet: deps.wallet, identity: deps.identity });
  const broadcasts = new Broadcasts({
    db: deps.database.db,
    activeUserIdsAfter: (afterId, limit, db, filter) => deps.identity.activeUserIdsAfter(afterId, limit, db, filter),
    notifyMany: (inputs, tx) => deps.notices.notifyMany(inputs, tx),
  });
  const broadcastRoutes = backOfficeBroadcastRoutes(broadcasts);
  const bannerRoutes = backOfficeBannerRoutes(deps.market);
  registerProductSettingKinds(deps.settingsWorkflow, deps.wallet, deps.exchange);
  const settingsRoutes = backOfficeSettingsRoutes(
    new ProductSettings(deps.database.db, deps.wallet, deps.exchange, deps.settingsWorkflow),
  );
  return {
    service,
    routes: async (app) => {
      await app.register(accessRoutes);
      await app.register(adjustmentRoutes);
      await app.register(userRoutes);
      await app.register(depositRoutes);
      await app.register(broadcastRoutes);
      await app.register(bannerRoutes);
      await app.register(settingsRoutes);
    },
    jobs: [],
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The back office's service (operators, access, audit; CLIs and tests). */
    admin: AdminService;
  }
}
