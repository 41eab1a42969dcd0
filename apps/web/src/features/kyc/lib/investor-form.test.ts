import { describe, expect, it } from 'vitest';
import { sharesExceedWhole } from './investor-form.ts';

describe('sharesExceedWhole', () => {
  it('adds the shares exactly in hundredths of a percent', () => {
    expect(sharesExceedWhole([{ sharePercent: '33.33' }, { sharePercent: '33.33' }, { sharePercent: '33.34' }])).toBe(
      false,
    );
    expect(sharesExceedWhole([{ sharePercent: '50' }, { sharePercent: '50.01' }])).toBe(true);
  });

  it('counts unfinished shares and empty rows as 0', () => {
    expect(sharesExceedWhole([{ sharePercent: 'abc' }, undefined, { sharePercent: '100' }])).toBe(false);
  });
});
