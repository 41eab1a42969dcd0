import type { Address, LocalAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { SecretBox } from '../../platform/security/secret-box.ts';

/**
 * What signs the hot wallet's transactions: a viem account able to sign an EIP-1559 transaction
 * offline (`signTransaction`, the serialized signed transaction as 0x… hex). Two kinds:
 *
 * - the **sealed local key** (`sealedKeySigner`): a secp256k1 private key kept in
 *   `chain_hot_wallets.key_sealed`, sealed with CHAIN_VAULT_KEY, opened in memory only;
 * - a **KMS** (AWS KMS, GCP Cloud KMS, an HSM): build a viem custom account with
 *   `toAccount({ address, signTransaction, signMessage, signTypedData })` from `viem/accounts`
 *   whose `signTransaction(transaction, { serializer })` hashes the serialized unsigned transaction
 *   (keccak-256), asks the KMS for an ECDSA secp256k1 signature of that digest, normalises `s` to
 *   the lower half (EIP-2), recovers `yParity`, and returns `serializer(transaction, { r, s,
 *   yParity })`. The key never leaves the KMS; `key_sealed` stays null. `signMessage` and
 *   `signTypedData` may throw: only transactions are signed. docs/chain.md "Signing".
 */
export interface HotWalletSigner {
  /** Checksummed address of the account. */
  readonly address: Address;
  /** The viem account that signs (`type: 'local'`; a KMS account made by `toAccount`). */
  readonly account: LocalAccount;
  /** The private key sealed for `chain_hot_wallets.key_sealed`; null when a KMS holds the key. */
  readonly keySealed: string | null;
}

/** The purpose label of the hot wallet's key in `SecretBox` (one key never serves two uses). */
const VAULT_PURPOSE = 'chain-hot-wallet-key';

/**
 * A signer over a private key sealed with `vaultKey` (CHAIN_VAULT_KEY): opens `keySealed`, or when
 * it is null generates a new key and seals it (the caller stores `keySealed` before using it).
 * @throws Error when `keySealed` was not sealed with this vault key (wrong CHAIN_VAULT_KEY).
 */
export function sealedKeySigner(vaultKey: string, keySealed: string | null): HotWalletSigner {
  const box = new SecretBox(vaultKey, VAULT_PURPOSE);
  const privateKey = keySealed === null ? generatePrivateKey() : (box.open(keySealed) as `0x${string}`);
  const account = privateKeyToAccount(privateKey);
  return { address: account.address, account, keySealed: keySealed ?? box.seal(privateKey) };
}
