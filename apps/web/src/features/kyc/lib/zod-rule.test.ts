import { qualifySubmissionSchema } from '@meridian/contracts/kyc';
import { englishNameSchema } from '@meridian/contracts/kyc-rules';
import { describe, expect, it } from 'vitest';
import { zodRule } from './zod-rule.ts';

const check = (rule: ReturnType<typeof zodRule>, value: unknown) =>
  (rule.validator as (rule: unknown, value: unknown) => Promise<void>)({}, value);

describe('zodRule', () => {
  it('passes empty values and valid ones', async () => {
    await expect(
      check(
        zodRule(() => englishNameSchema, 'en-US'),
        '',
      ),
    ).resolves.toBeUndefined();
    await expect(
      check(
        zodRule(() => englishNameSchema, 'en-US'),
        'Chan Tai Man',
      ),
    ).resolves.toBeUndefined();
  });

  it("words a custom issue with its params in the user's language", async () => {
    const portfolio = qualifySubmissionSchema.options[0].shape.portfolioHkd;
    await expect(
      check(
        zodRule(() => portfolio, 'en-US'),
        '7999999.99',
      ),
    ).rejects.toThrow('The professional-investor test needs at least HK$8,000,000');
    await expect(
      check(
        zodRule(() => portfolio, 'zh-HK'),
        '100',
      ),
    ).rejects.toThrow('專業投資者測試須至少 HK$8,000,000');
  });
});
