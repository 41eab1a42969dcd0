// npm run dev:chain — the development server on a local Ethereum node: starts Anvil on a free port,
// deploys test USDT and USDC (6 decimals), and runs `tsx watch src/main.ts` with EVM_RPC_URL,
// EVM_TOKENS and short confirmations, so deposits to a user's ETH/ERC20 address are credited from
// the chain (docs/chain.md). Ctrl-C stops the server and Anvil (only the children this started).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { deployTestToken, startAnvil } from '../src/modules/chain/chain.anvil.ts';

const anvil = await startAnvil({ extraArgs: ['--block-time', '2'] });
const usdt = await deployTestToken(anvil.rpcUrl, 'USDT', 6);
const usdc = await deployTestToken(anvil.rpcUrl, 'USDC', 6);
const env = {
  ...process.env,
  EVM_RPC_URL: anvil.rpcUrl,
  EVM_TOKENS: `USDT=${usdt},USDC=${usdc}`,
  EVM_CONFIRMATIONS: process.env.EVM_CONFIRMATIONS ?? 'ETH=3,USDT=3,USDC=3',
  EVM_POLL_INTERVAL_MS: process.env.EVM_POLL_INTERVAL_MS ?? '1000',
};
console.log(`anvil ${anvil.rpcUrl} (pid ${anvil.pid}); USDT ${usdt}; USDC ${usdc}`);
console.log('send with: cast send --rpc-url <url> --unlocked --from 0xf39F…2266 <address> --value 1ether, or mint():');
console.log(`  the funder 0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266 is unlocked; TestToken has mint(address,uint256)`);
const server = spawn(
  process.execPath,
  [join(import.meta.dirname, '../../../node_modules/.bin/tsx'), 'watch', 'src/main.ts'],
  { cwd: join(import.meta.dirname, '..'), env, stdio: 'inherit' },
);
let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  server.kill('SIGTERM');
  await anvil.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
server.on('exit', () => void stop());
