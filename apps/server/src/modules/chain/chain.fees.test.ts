import { describe, expect, it } from 'vitest';
import { feesFromHistory, gweiToWei, replacementFees } from './chain.fees.ts';
import { explorerUrlOf } from './chain.withdrawals-read.ts';

const GWEI = 1_000_000_000n;

describe('EIP-1559 fees', () => {
  it('offers 2 × the next base fee + the median tip, capped', () => {
    const history = {
      baseFeePerGas: [10n * GWEI, 12n * GWEI, 20n * GWEI],
      reward: [[1n * GWEI], [3n * GWEI], [2n * GWEI]],
    };
    expect(feesFromHistory(history, 200n * GWEI)).toEqual({
      maxFeePerGasWei: 42n * GWEI,
      maxPriorityFeePerGasWei: 2n * GWEI,
    });
    expect(feesFromHistory(history, 30n * GWEI)).toEqual({
      maxFeePerGasWei: 30n * GWEI,
      maxPriorityFeePerGasWei: 2n * GWEI,
    });
  });

  it('sends nothing while the next base fee alone is over the cap, and tips at least 0.1 gwei', () => {
    expect(feesFromHistory({ baseFeePerGas: [300n * GWEI] }, 200n * GWEI)).toBeNull();
    expect(feesFromHistory({ baseFeePerGas: [1n * GWEI], reward: [[0n]] }, 200n * GWEI)).toEqual({
      maxFeePerGasWei: 2n * GWEI + GWEI / 10n,
      maxPriorityFeePerGasWei: GWEI / 10n,
    });
  });

  it('raises both fees of a replacement by more than 10 %, or to the current estimate, within the cap', () => {
    const old = { maxFeePerGasWei: 100n, maxPriorityFeePerGasWei: 10n };
    expect(replacementFees(old, null, 1000n)).toEqual({ maxFeePerGasWei: 111n, maxPriorityFeePerGasWei: 12n });
    expect(replacementFees(old, { maxFeePerGasWei: 500n, maxPriorityFeePerGasWei: 50n }, 1000n)).toEqual({
      maxFeePerGasWei: 500n,
      maxPriorityFeePerGasWei: 50n,
    });
    expect(replacementFees(old, null, 110n)).toBeNull();
  });

  it('reads EVM_MAX_FEE_GWEI as wei', () => {
    expect(gweiToWei('200')).toBe(200n * GWEI);
    expect(gweiToWei('0.5')).toBe(GWEI / 2n);
    expect(() => gweiToWei('0.0000000001')).toThrow();
  });
});

describe('explorer links', () => {
  it('puts the hash in place of {hash}, else after the URL', () => {
    expect(explorerUrlOf('https://etherscan.io/tx/{hash}', '0xab')).toBe('https://etherscan.io/tx/0xab');
    expect(explorerUrlOf('https://x.test/tx/', '0xab')).toBe('https://x.test/tx/0xab');
    expect(explorerUrlOf('https://x.test/tx/', null)).toBeNull();
  });
});
