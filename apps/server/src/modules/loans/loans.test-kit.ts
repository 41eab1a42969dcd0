import type { Clock } from '../../platform/clock/clock.ts';
import type { DbOrTx } from '../../platform/db/client.ts';
import type { AggregatedPrice, PriceOracle } from '../../platform/prices/aggregator.ts';
import { PriceDecimal, PriceUnavailableError } from '../../platform/prices/types.ts';
import { postEntry } from '../ledger/ledger.service.ts';
import { platformAccount, transfer, userAccount } from '../ledger/ledger.types.ts';

/** What a loans test scripts: the BTC price (USD, decimal string), an outage, and the quotes' age. */
export interface ScriptedMarket {
  btc: string;
  isDown: boolean;
  ageMs: number;
}

/**
 * A price oracle answering from `market` as three agreeing sources would: BTC at `market.btc`
 * (refused while `isDown`), ETH at 2,500, stablecoins at their 1 USD peg, observed `ageMs` before
 * `clock.now()`. Tests change `market` between steps to move the price.
 */
export function scriptedOracle(clock: Clock, market: ScriptedMarket): PriceOracle {
  const sources = ['scripted-a', 'scripted-b', 'scripted-c'];
  return {
    sourceNames: sources,
    pegStatuses: () => [],
    price: async (symbol): Promise<AggregatedPrice> => {
      if (market.isDown && symbol === 'BTC') throw new PriceUnavailableError(symbol, []);
      const price = symbol === 'BTC' ? market.btc : symbol === 'ETH' ? '2500' : '1';
      return {
        symbol,
        priceUsd: new PriceDecimal(price),
        observedAt: new Date(clock.now().getTime() - market.ageMs),
        basis: symbol === 'BTC' || symbol === 'ETH' ? 'median' : 'peg',
        sources,
        excluded: [],
      };
    },
  };
}

let testDepositCount = 0;

/** Credit `amountMinor` of `coin` to the user's available balance, as a deposit through the ledger. */
export async function depositForTest(
  db: DbOrTx,
  userId: string,
  coin: 'USDT' | 'BTC',
  amountMinor: bigint,
): Promise<void> {
  const key = `test:loan-deposit-${process.pid}-${(testDepositCount += 1)}`;
  await postEntry(db, {
    kind: 'DEPOSIT',
    reference: key,
    idempotencyKey: key,
    postings: transfer(
      platformAccount('PLATFORM_HOT_WALLET', coin),
      userAccount(userId, 'USER_AVAILABLE', coin),
      amountMinor,
    ),
  });
}
