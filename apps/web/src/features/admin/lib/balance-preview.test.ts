import { describe, expect, it } from 'vitest';
import { isShortfall, previewBalance } from './balance-preview.ts';

describe('previewBalance', () => {
  it('is balanced when each asset sums to zero exactly (no float error on 0.1 + 0.2)', () => {
    const preview = previewBalance([
      { asset: 'USDT', amount: '0.1' },
      { asset: 'usdt', amount: '0.2' },
      { asset: 'USDT', amount: '-0.3' },
      { asset: 'BTC', amount: '0.00000001' },
      { asset: 'BTC', amount: '-0.00000001' },
    ]);
    expect(preview.perAsset).toEqual([
      { asset: 'USDT', sum: '0', isBalanced: true },
      { asset: 'BTC', sum: '0', isBalanced: true },
    ]);
    expect(preview.isBalanced).toBe(true);
  });

  it('names the asset that does not balance and its exact sum', () => {
    const preview = previewBalance([
      { asset: 'ETH', amount: '1.5' },
      { asset: 'ETH', amount: '-1.499999999999999999' },
    ]);
    expect(preview.perAsset).toEqual([{ asset: 'ETH', sum: '0.000000000000000001', isBalanced: false }]);
    expect(preview.isBalanced).toBe(false);
  });

  it('leaves out lines that are not signed decimals and is then not balanced', () => {
    const preview = previewBalance([
      { asset: 'USDT', amount: '10' },
      { asset: 'USDT', amount: '-10' },
      { asset: 'USDT', amount: '1e3' },
      undefined,
    ]);
    expect(preview.invalidLines).toEqual([2, 3]);
    expect(preview.isBalanced).toBe(false);
  });

  it('needs at least two lines', () => {
    expect(previewBalance([{ asset: 'USDT', amount: '0' }]).isBalanced).toBe(false);
  });
});

describe('isShortfall', () => {
  it('compares decimal strings exactly', () => {
    expect(isShortfall('100.000000000000000001', '100')).toBe(true);
    expect(isShortfall('100', '100.00')).toBe(false);
  });
});
