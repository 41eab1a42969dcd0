import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  type Abi,
  type Address,
  createPublicClient,
  createTestClient,
  createWalletClient,
  type Hex,
  http,
  parseEther,
} from 'viem';
import { foundry } from 'viem/chains';

/**
 * Anvil (Foundry's local Ethereum node, from npm: the Linux binary ships inside
 * `@foundry-rs/anvil-linux-amd64`; nothing is downloaded) for the chain tests, `npm run dev:chain`
 * and the benchmark: started on a free port as a child of this process, and stopped by its pid.
 */
export interface AnvilNode {
  rpcUrl: string;
  /** The first of Anvil's funded, unlocked dev accounts: sends the test transfers. */
  funder: Address;
  /** The child's pid (only this process's own child is ever stopped). */
  pid: number;
  stop(): Promise<void>;
}

/** The compiled test ERC-20 (`data/TestToken.sol`, compiled once by scripts/compile-test-token.ts). */
export const TEST_TOKEN = JSON.parse(readFileSync(join(import.meta.dirname, 'data/TestToken.json'), 'utf8')) as {
  compiler: string;
  abi: Abi;
  bytecode: Hex;
};

/** Anvil's first dev account (from its default mnemonic): funded with 10 000 ETH and unlocked. */
export const ANVIL_FUNDER: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266';

/** The path of the anvil binary of `@foundry-rs/anvil-linux-amd64`. */
export function anvilBinaryPath(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('@foundry-rs/anvil-linux-amd64/package.json')), 'bin', 'anvil');
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Start Anvil on a free 127.0.0.1 port (chain id 31337, a block per transaction) and wait until it
 * answers `eth_chainId` (at most `readyTimeoutMs`, default 15 000).
 * @throws Error when it does not answer in time (the child is stopped).
 */
export async function startAnvil(options: { readyTimeoutMs?: number; extraArgs?: string[] } = {}): Promise<AnvilNode> {
  const port = await freePort();
  const child: ChildProcess = spawn(
    anvilBinaryPath(),
    ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(foundry.id), ...(options.extraArgs ?? [])],
    { stdio: 'ignore' },
  );
  const rpcUrl = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await Promise.race([exited, sleep(3000)]);
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  };
  const client = createPublicClient({ chain: foundry, transport: http(rpcUrl, { retryCount: 0 }) });
  const deadline = performance.now() + (options.readyTimeoutMs ?? 15_000);
  for (;;) {
    try {
      await client.getChainId();
      break;
    } catch {
      if (performance.now() > deadline || child.exitCode !== null) {
        await stop();
        throw new Error(`anvil did not answer on ${rpcUrl}`);
      }
      await sleep(50);
    }
  }
  return { rpcUrl, funder: ANVIL_FUNDER, pid: child.pid!, stop };
}

/** Clients of a running Anvil: reads, sends from the funder, and Anvil's own test methods. */
export function anvilClients(rpcUrl: string) {
  const transport = http(rpcUrl, { retryCount: 0 });
  return {
    public: createPublicClient({ chain: foundry, transport }),
    wallet: createWalletClient({ chain: foundry, transport, account: ANVIL_FUNDER }),
    test: createTestClient({ chain: foundry, transport, mode: 'anvil' }),
  };
}

/** Deploy a `TestToken` (`name`, `symbol`, `decimals`) from the funder; resolves with its address. */
export async function deployTestToken(rpcUrl: string, symbol: string, decimals: number): Promise<Address> {
  const clients = anvilClients(rpcUrl);
  const hash = await clients.wallet.deployContract({
    abi: TEST_TOKEN.abi,
    bytecode: TEST_TOKEN.bytecode,
    args: [`Test ${symbol}`, symbol, decimals],
  });
  const receipt = await clients.public.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  if (!receipt.contractAddress) throw new Error(`deploying ${symbol} created no contract`);
  return receipt.contractAddress;
}

/** Mint `amount` base units of `token` to `to` (one transaction, one block); resolves with its hash. */
export async function mintTestToken(rpcUrl: string, token: Address, to: Address, amount: bigint): Promise<Hex> {
  const clients = anvilClients(rpcUrl);
  const hash = await clients.wallet.writeContract({
    address: token,
    abi: TEST_TOKEN.abi,
    functionName: 'mint',
    args: [to, amount],
  });
  await clients.public.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  return hash;
}

/** Send `ether` (a decimal string) from the funder to `to` (one block); resolves with the tx hash. */
export async function sendTestEther(rpcUrl: string, to: Address, ether: string): Promise<Hex> {
  const clients = anvilClients(rpcUrl);
  const hash = await clients.wallet.sendTransaction({ to, value: parseEther(ether) });
  await clients.public.waitForTransactionReceipt({ hash, pollingInterval: 50 });
  return hash;
}
