import type { AppModule } from '../../platform/app-module.ts';
import type { Database } from '../../platform/db/client.ts';
import type { WalletService } from '../wallet/wallet.service.ts';
import { adminRoutes } from './admin.routes.ts';
import { AdminService } from './admin.service.ts';

/** What `buildApp` hands the admin module. */
export interface AdminModuleDeps {
  database: Database;
  /** The wallet, whose withdrawal transitions the operators perform. */
  wallet: WalletService;
}

/**
 * Wire the back office: operators with bearer tokens and the operator API (`/api/ops/...`); the
 * ready place for the back-office issue's screens. No jobs.
 */
export function createAdminModule(deps: AdminModuleDeps): AppModule<AdminService> {
  const service = new AdminService(deps.database.db, deps.wallet);
  return { service, routes: adminRoutes(service, deps.wallet), jobs: [] };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The back office's service (operators; CLIs and tests). */
    admin: AdminService;
  }
}
