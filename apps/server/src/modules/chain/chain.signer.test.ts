import { parseGwei, recoverTransactionAddress } from 'viem';
import { describe, expect, it } from 'vitest';
import { sealedKeySigner } from './chain.signer.ts';

const VAULT_KEY = 'a-chain-vault-key-for-the-unit-tests-0123456789';

describe('the sealed hot-wallet key', () => {
  it('seals a new key, opens it again to the same account, and signs transactions from it', async () => {
    const created = sealedKeySigner(VAULT_KEY, null);
    expect(created.keySealed).toMatch(/^v1:/);
    expect(created.keySealed).not.toContain(created.address.slice(2));
    const reopened = sealedKeySigner(VAULT_KEY, created.keySealed);
    expect(reopened.address).toBe(created.address);
    const signed = await reopened.account.signTransaction({
      type: 'eip1559',
      chainId: 31337,
      nonce: 0,
      to: created.address,
      value: 1n,
      gas: 21_000n,
      maxFeePerGas: parseGwei('2'),
      maxPriorityFeePerGas: parseGwei('1'),
    });
    expect(await recoverTransactionAddress({ serializedTransaction: signed as `0x02${string}` })).toBe(created.address);
  });

  it('refuses a key sealed under another vault key', () => {
    const created = sealedKeySigner(VAULT_KEY, null);
    expect(() => sealedKeySigner(`${VAULT_KEY}-other`, created.keySealed)).toThrow();
  });
});
