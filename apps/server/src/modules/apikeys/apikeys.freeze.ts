import type { FreezeResult } from '@meridian/contracts/freeze-links';
import type { IdentityService, RequestMeta } from '../identity/identity.service.ts';
import type { WalletService } from '../wallet/wallet.service.ts';
import type { ApiKeyService } from './apikeys.service.ts';

/**
 * The "this wasn't me" link of security emails (docs/freeze-links.md):
 * identity uses the token up, freezes the account (the back office's frozen state) and revokes
 * every session in one transaction; then every API key is revoked and every waiting withdrawal is
 * cancelled back through the wallet's own cancel path (its ledger return entry). Lives here because
 * it needs identity, the keys and the wallet, all created before this module.
 */
export class FreezeLinkService {
  constructor(
    private readonly deps: {
      identity: Pick<IdentityService, 'redeemFreezeToken'>;
      apiKeys: Pick<ApiKeyService, 'revokeAll'>;
      wallet: Pick<WalletService, 'cancelPendingWithdrawals'>;
    },
  ) {}

  /**
   * Freeze the account of `token`'s user (no sign-in).
   * @throws DomainError FREEZE_LINK_INVALID (278) for an unknown, used or expired token.
   */
  async freeze(token: string, meta: RequestMeta): Promise<FreezeResult> {
    const outcome = await this.deps.identity.redeemFreezeToken(token, meta);
    const apiKeysRevoked = await this.deps.apiKeys.revokeAll(outcome.userId, 'freeze_link');
    const withdrawalsCancelled = await this.deps.wallet.cancelPendingWithdrawals(outcome.userId);
    return {
      frozenAt: outcome.frozenAt.toISOString(),
      sessionsRevoked: outcome.sessionsRevoked,
      apiKeysRevoked,
      withdrawalsCancelled,
    };
  }
}
