import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Address screening (KYT): withdrawal addresses,
 * address-book entries and deposit sources are checked against lists of sanctioned addresses.
 * A hit refuses the withdrawal or freezes the deposit for review; that decision is the caller's.
 */

/** The answer of a screening: clear, or a hit naming the list that holds the address. */
export type ScreeningResult = { status: 'clear' } | { status: 'hit'; listName: string; address: string };

/** A source of screening answers: the bundled list by default, a commercial KYT service later. */
export interface AddressScreeningProvider {
  /**
   * Screen `address` on `network` (a network name of the wallet: `Bitcoin`, `Ethereum`, `ERC20`,
   * `TRC20` …). Never throws for an unknown network: the address is compared by its shape.
   */
  screen(network: string, address: string): Promise<ScreeningResult>;
}

/** Address families whose spelling rules differ. */
type AddressFamily = 'evm' | 'bitcoin' | 'tron';

const EVM_NETWORKS = new Set(['ethereum', 'erc20', 'bep20', 'polygon', 'arbitrum', 'optimism', 'base']);
const TRON_NETWORKS = new Set(['tron', 'trc20']);
const BITCOIN_NETWORKS = new Set(['bitcoin', 'btc', 'omni']);

/** The family of an address by its shape: `0x` + 40 hex is EVM, `T` + 33 base58 is TRON, else Bitcoin-style. */
function familyOfAddress(address: string): AddressFamily {
  if (/^0x[0-9a-fA-F]{40}$/.test(address)) return 'evm';
  if (/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(address)) return 'tron';
  return 'bitcoin';
}

function familyOf(network: string, address: string): AddressFamily {
  const name = network.trim().toLowerCase();
  if (EVM_NETWORKS.has(name)) return 'evm';
  if (TRON_NETWORKS.has(name)) return 'tron';
  if (BITCOIN_NETWORKS.has(name)) return 'bitcoin';
  return familyOfAddress(address);
}

/**
 * The comparison form of an address: EVM addresses lower-cased (EIP-55 mixed case is only a
 * checksum); bech32 Bitcoin addresses (`bc1…`) lower-cased (BIP 173: one case, either); base58
 * addresses (legacy Bitcoin, TRON) kept as they are, since their case is significant.
 */
export function normaliseAddress(family: AddressFamily, address: string): string {
  const trimmed = address.trim();
  if (family === 'evm') return trimmed.toLowerCase();
  if (family === 'bitcoin' && /^(bc1|tb1)/i.test(trimmed)) return trimmed.toLowerCase();
  return trimmed;
}

/** One named list of addresses (e.g. "OFAC SDN"). */
export interface SanctionsList {
  listName: string;
  addresses: readonly string[];
}

/**
 * The default provider: a set of lists held in memory, looked up by normalised address. An
 * address listed under one asset (USDT on Ethereum) is a hit on every network of its family.
 */
export class LocalListScreeningProvider implements AddressScreeningProvider {
  private readonly listByKey = new Map<string, string>();

  constructor(lists: readonly SanctionsList[]) {
    for (const list of lists) {
      for (const address of list.addresses) {
        const family = familyOfAddress(address.trim());
        this.listByKey.set(`${family}:${normaliseAddress(family, address)}`, list.listName);
      }
    }
  }

  /** How many distinct addresses are listed. */
  get size(): number {
    return this.listByKey.size;
  }

  screen(network: string, address: string): Promise<ScreeningResult> {
    const family = familyOf(network, address.trim());
    const normalised = normaliseAddress(family, address);
    const listName = this.listByKey.get(`${family}:${normalised}`);
    return Promise.resolve(
      listName === undefined ? { status: 'clear' } : { status: 'hit', listName, address: normalised },
    );
  }
}

/** Name of the list the bundled `ofac_sdn_*.txt` files make up. */
export const OFAC_SDN_LIST_NAME = 'OFAC SDN';

/** Parse a list file: one address a line; blank lines and `#` comments are skipped. */
export function parseAddressList(text: string): string[] {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter((line) => line.length > 0);
}

/**
 * Load every `*.txt` file of `dir` as lists: `ofac_sdn_*.txt` files are the OFAC SDN list, any
 * other file a list named after the file.
 */
export function loadSanctionsDirectory(dir: string): SanctionsList[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.txt'))
    .sort()
    .map((file) => ({
      listName: file.startsWith('ofac_sdn_') ? OFAC_SDN_LIST_NAME : file.replace(/\.txt$/, ''),
      addresses: parseAddressList(readFileSync(join(dir, file), 'utf8')),
    }));
}

/**
 * The bundled list directory `apps/server/data/sanctions`, found by walking up from this file (so
 * it works from the sources and from `dist/main.js`).
 * @throws Error when it cannot be found.
 */
export function findSanctionsDataDir(start: string = dirname(fileURLToPath(import.meta.url))): string {
  let dir = start;
  for (let depth = 0; depth < 8; depth += 1) {
    for (const candidate of [join(dir, 'data', 'sanctions'), join(dir, 'apps', 'server', 'data', 'sanctions')]) {
      if (existsSync(join(candidate, 'README.md'))) return resolve(candidate);
    }
    dir = dirname(dir);
  }
  throw new Error(`no sanctions list directory found above ${start}`);
}

/** The default provider over the bundled lists (or the lists of `dir`). */
export function createLocalScreeningProvider(dir: string = findSanctionsDataDir()): LocalListScreeningProvider {
  return new LocalListScreeningProvider(loadSanctionsDirectory(dir));
}
