import type { Address } from 'viem';
import { createTestApp, type TestApp } from '../../../test/helpers.ts';
import type { Clock } from '../../platform/clock/clock.ts';
import { type AnvilNode, anvilClients, deployTestToken, startAnvil } from './chain.anvil.ts';

/** What `startChainTestApp` brings up: the node, the test tokens' addresses and the app following them. */
export interface ChainTestBed {
  anvil: AnvilNode;
  usdt: Address;
  usdc: Address;
  t: TestApp;
  /** Mine `blocks` blocks on the node now. */
  mine: (blocks: number) => Promise<void>;
  /** Close the app, then stop the node. */
  close: () => Promise<void>;
}

/**
 * The chain tests' common set-up: Anvil on a free port (a child of this process), test USDT and USDC
 * (6 decimals) deployed from the committed bytecode, and an app on a fresh database that follows the
 * node (EVM_RPC_URL, EVM_TOKENS, EVM_CONFIRMATIONS = `confirmations` for ETH, USDT and USDC, the
 * jobs off: the tests poll and send by hand). The caller seeds the wallet's coins (`seedWallet`).
 * `env` adds to or overrides those settings (e.g. EVM_DEPOSIT_MINIMUMS, the hot wallet's limits);
 * `clock` is the app's clock.
 */
export async function startChainTestApp(options: {
  confirmations: number;
  env?: NodeJS.ProcessEnv;
  clock?: Clock;
}): Promise<ChainTestBed> {
  const anvil = await startAnvil();
  const usdt = await deployTestToken(anvil.rpcUrl, 'USDT', 6);
  const usdc = await deployTestToken(anvil.rpcUrl, 'USDC', 6);
  const n = options.confirmations;
  const t = await createTestApp({
    ...(options.clock && { clock: options.clock }),
    env: {
      EVM_RPC_URL: anvil.rpcUrl,
      EVM_TOKENS: `USDT=${usdt},USDC=${usdc}`,
      EVM_CONFIRMATIONS: `ETH=${n},USDT=${n},USDC=${n}`,
      JOBS_ENABLED: 'false',
      ...options.env,
    },
  });
  return {
    anvil,
    usdt,
    usdc,
    t,
    mine: async (blocks) => anvilClients(anvil.rpcUrl).test.mine({ blocks }),
    close: async () => {
      await t.close();
      await anvil.stop();
    },
  };
}
