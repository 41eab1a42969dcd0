// npm run compile:test-token -w @meridian/server — compile src/modules/chain/data/TestToken.sol once
// with solc-js and write its ABI and bytecode, with the compiler's version, to TestToken.json beside
// it. Run by hand when the source changes; tests and `npm run dev:chain` only read the JSON.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import solc from 'solc';

const dir = join(import.meta.dirname, '../src/modules/chain/data');
const source = readFileSync(join(dir, 'TestToken.sol'), 'utf8');
const input = {
  language: 'Solidity',
  sources: { 'TestToken.sol': { content: source } },
  settings: {
    optimizer: { enabled: true, runs: 200 },
    evmVersion: 'cancun',
    outputSelection: { '*': { TestToken: ['abi', 'evm.bytecode.object'] } },
  },
};
const output = JSON.parse(solc.compile(JSON.stringify(input))) as {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
};
const errors = (output.errors ?? []).filter((error) => error.severity === 'error');
if (errors.length > 0) {
  for (const error of errors) console.error(error.formattedMessage);
  process.exit(1);
}
const contract = output.contracts['TestToken.sol']!.TestToken!;
const artifact = {
  contractName: 'TestToken',
  compiler: `solc-js ${solc.version()}`,
  settings: input.settings,
  abi: contract.abi,
  bytecode: `0x${contract.evm.bytecode.object}`,
};
writeFileSync(join(dir, 'TestToken.json'), `${JSON.stringify(artifact, null, 2)}\n`);
console.log(`TestToken.json written (${artifact.compiler}, ${contract.evm.bytecode.object.length / 2} bytes)`);
