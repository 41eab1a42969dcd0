import type { DbOrTx } from '../../platform/db/client.ts';
import { banners } from './market.tables.ts';

/** Demo banners (idempotent: existing rows are left as they are). Images, one per language, live in apps/web/public/banners. */
export async function seedMarket(db: DbOrTx): Promise<void> {
  await db
    .insert(banners)
    .values([
      {
        bannerId: 'earn',
        imagePath: '/banners/earn.svg',
        imagePathZhHk: '/banners/earn.zh-HK.svg',
        webLink: '/product/earn',
        titleEn: 'Earn up to 10.8% a year',
        titleZhHk: '年化收益高達 10.8%',
        sortOrder: 1,
      },
      {
        bannerId: 'trust',
        imagePath: '/banners/trust.svg',
        imagePathZhHk: '/banners/trust.zh-HK.svg',
        webLink: '/product/trust',
        titleEn: 'BTC trust with a one-time 2% fee',
        titleZhHk: 'BTC 信託，一次性 2% 委託費',
        sortOrder: 2,
      },
      {
        bannerId: 'loan',
        imagePath: '/banners/loan.svg',
        imagePathZhHk: '/banners/loan.zh-HK.svg',
        webLink: '/loan',
        titleEn: 'Borrow stablecoins against BTC',
        titleZhHk: '以 BTC 抵押借入穩定幣',
        sortOrder: 3,
      },
      {
        bannerId: 'card',
        imagePath: '/banners/card.svg',
        imagePathZhHk: '/banners/card.zh-HK.svg',
        webLink: '/product/fiscard',
        titleEn: 'Spend stablecoins with Visa and Mastercard',
        titleZhHk: '以 Visa 及 Mastercard 消費穩定幣',
        sortOrder: 4,
      },
      {
        bannerId: 'exchange',
        imagePath: '/banners/exchange.svg',
        imagePathZhHk: '/banners/exchange.zh-HK.svg',
        webLink: '/exchange',
        titleEn: 'Swap coins with firm quotes',
        titleZhHk: '以鎖定報價兌換幣種',
        sortOrder: 5,
      },
    ])
    .onConflictDoNothing();
}
