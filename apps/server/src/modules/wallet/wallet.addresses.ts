import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { bytesToHex, hexToBytes, randomBytes } from '@noble/hashes/utils.js';
import { base58check as base58checkFactory, bech32, bech32m } from '@scure/base';
import { HDKey } from '@scure/bip32';

/**
 * Address families. A network belongs to one chain; ERC20 tokens and ETH share Ethereum
 * addresses, so a user has one deposit address per chain, not per network, and an index is never
 * given to two users on the same chain.
 */
export const CHAINS = ['bitcoin', 'evm', 'tron'] as const;
export type Chain = (typeof CHAINS)[number];

const NETWORK_CHAIN: Record<string, Chain> = {
  Bitcoin: 'bitcoin',
  Ethereum: 'evm',
  ERC20: 'evm',
  // Gnosis Chain (EURE): an EVM chain, so the same address as on Ethereum.
  Gnosis: 'evm',
  TRC20: 'tron',
};

/** The chain of a network name, or undefined for a network this build cannot address. */
export function chainOf(network: string): Chain | undefined {
  return NETWORK_CHAIN[network];
}

const base58check = base58checkFactory(sha256);

/** Extended-key version bytes of BIP32 (xpub) and BIP84 (zpub, native segwit), mainnet. */
const XPUB_VERSIONS = { private: 0x0488ade4, public: 0x0488b21e };
const ZPUB_VERSIONS = { private: 0x04b2430c, public: 0x04b24746 };

/** Account-level derivation paths (the xpub configured per chain is the key at this path). */
export const ACCOUNT_PATHS: Record<Chain, string> = {
  bitcoin: "m/84'/0'/0'", // BIP84 native segwit (P2WPKH)
  evm: "m/44'/60'/0'", // BIP44 coin type 60 (SLIP-44 Ether)
  tron: "m/44'/195'/0'", // BIP44 coin type 195 (SLIP-44 TRON)
};

/**
 * Parse an account-level extended public key: `xpub…` or, for Bitcoin, `zpub…` (BIP84). Refuses a
 * private key: the server must never hold one.
 * @throws Error naming the problem.
 */
export function parseAccountXpub(text: string): HDKey {
  const versions = text.startsWith('zpub') ? ZPUB_VERSIONS : XPUB_VERSIONS;
  if (!/^[xz]pub/.test(text)) throw new Error('an account extended PUBLIC key (xpub… or zpub…) is expected');
  const key = HDKey.fromExtendedKey(text, versions);
  if (key.privateKey) throw new Error('a private key was given where a public key is expected');
  return key;
}

function hash160(bytes: Uint8Array): Uint8Array {
  return ripemd160(sha256(bytes));
}

/** Compressed SEC1 public key → uncompressed 64-byte X||Y (no 0x04 prefix), for keccak addresses. */
function uncompressedXY(publicKey: Uint8Array): Uint8Array {
  return secp256k1.Point.fromBytes(publicKey).toBytes(false).slice(1);
}

/**
 * EIP-55 spellings already computed, by lowercase hex (a Keccak hash each): the chain watcher
 * spells the same deposit addresses block after block. Emptied when full (about 3 MB at most).
 */
const checksummed = new Map<string, string>();
const CHECKSUMMED_MAX = 32_768;

/** EIP-55 mixed-case checksum form of a 20-byte address given as 40 lowercase hex digits. */
export function toChecksumAddress(hex40: string): string {
  const lower = hex40.toLowerCase();
  const known = checksummed.get(lower);
  if (known !== undefined) return known;
  const hash = bytesToHex(keccak_256(new TextEncoder().encode(lower)));
  let out = '0x';
  for (let i = 0; i < 40; i += 1) {
    const char = lower[i]!;
    out += Number.parseInt(hash[i]!, 16) >= 8 ? char.toUpperCase() : char;
  }
  if (checksummed.size >= CHECKSUMMED_MAX) checksummed.clear();
  checksummed.set(lower, out);
  return out;
}

/** The address of a compressed public key on `chain`: bc1q… (BIP84 P2WPKH), EIP-55 0x…, or TRON T…. */
export function addressOfPublicKey(chain: Chain, publicKey: Uint8Array): string {
  if (chain === 'bitcoin') return bech32.encode('bc', [0, ...bech32.toWords(hash160(publicKey))]);
  const keccak20 = keccak_256(uncompressedXY(publicKey)).slice(12);
  if (chain === 'evm') return toChecksumAddress(bytesToHex(keccak20));
  return base58check.encode(new Uint8Array([0x41, ...keccak20]));
}

/**
 * Derive the receiving address `index` (path `<account>/0/<index>`) from an account-level extended
 * public key: watch-only, no private key involved (BIP32 public derivation).
 */
export function deriveAddress(chain: Chain, accountXpub: HDKey, index: number): string {
  const child = accountXpub.deriveChild(0).deriveChild(index);
  if (!child.publicKey) throw new Error('derivation produced no public key');
  return addressOfPublicKey(chain, child.publicKey);
}

/**
 * Demo account keys for the embedded default: a random seed, the three account-level extended
 * public keys derived from it, and the seed thrown away — the server holds no private key, and
 * the demo coins at these addresses can never be spent (which is what a demo wants).
 */
export function generateDemoXpubs(): Record<Chain, string> {
  const root = HDKey.fromMasterSeed(randomBytes(32));
  const account = (chain: Chain, versions: typeof XPUB_VERSIONS) => {
    const key = root.derive(ACCOUNT_PATHS[chain]);
    return new HDKey({
      versions,
      publicKey: key.publicKey!,
      chainCode: key.chainCode!,
      depth: key.depth,
      index: key.index,
      parentFingerprint: key.parentFingerprint,
    }).publicExtendedKey;
  };
  return {
    bitcoin: account('bitcoin', ZPUB_VERSIONS),
    evm: account('evm', XPUB_VERSIONS),
    tron: account('tron', XPUB_VERSIONS),
  };
}

// ---------------------------------------------------------------- validation of withdrawal addresses

/**
 * A Bitcoin mainnet address: segwit (BIP173 bech32 for witness v0 with a 20- or 32-byte program,
 * BIP350 bech32m for v1–16 with 2–40 bytes; one case only) or legacy base58check P2PKH/P2SH.
 */
function isBitcoinAddress(text: string): boolean {
  if (/^bc1/i.test(text)) {
    if (text !== text.toLowerCase() && text !== text.toUpperCase()) return false;
    const lower = text.toLowerCase();
    for (const [coder, isV0] of [
      [bech32, true],
      [bech32m, false],
    ] as const) {
      try {
        const { prefix, words } = coder.decode(lower as `${string}1${string}`);
        if (prefix !== 'bc' || words.length === 0) continue;
        const version = words[0]!;
        if (version > 16 || (version === 0) !== isV0) continue;
        const program = coder.fromWords(words.slice(1));
        if (program.length < 2 || program.length > 40) continue;
        if (version === 0 && program.length !== 20 && program.length !== 32) continue;
        return true;
      } catch {
        // Not this encoding (or a bad checksum or padding): try the other, then refuse.
      }
    }
    return false;
  }
  if (!/^[13][1-9A-HJ-NP-Za-km-z]{25,34}$/.test(text)) return false;
  try {
    const payload = base58check.decode(text);
    return payload.length === 21 && (payload[0] === 0x00 || payload[0] === 0x05);
  } catch {
    return false;
  }
}

/** An Ethereum address: 0x and 40 hex digits, all-lowercase, all-uppercase, or EIP-55 checksummed. */
function isEvmAddress(text: string): boolean {
  if (!/^0x[0-9a-fA-F]{40}$/.test(text)) return false;
  const digits = text.slice(2);
  if (digits === digits.toLowerCase() || digits === digits.toUpperCase()) return true;
  return toChecksumAddress(digits) === text;
}

/** A TRON address: base58check of 21 bytes starting 0x41 (T…), or its 42-digit hex form (41…). */
function tronPayload(text: string): Uint8Array | undefined {
  if (/^41[0-9a-fA-F]{40}$/.test(text)) return hexToBytes(text.toLowerCase());
  if (!/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(text)) return undefined;
  try {
    const payload = base58check.decode(text);
    return payload.length === 21 && payload[0] === 0x41 ? payload : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Check a withdrawal address for `network` and return its canonical form (lowercase bech32,
 * EIP-55 checksummed hex, TRON base58), or undefined when it is not a valid address there.
 */
export function normalizeAddress(network: string, text: string): string | undefined {
  const chain = chainOf(network);
  if (!chain || text.length > 128) return undefined;
  if (chain === 'bitcoin') return isBitcoinAddress(text) ? (/^bc1/i.test(text) ? text.toLowerCase() : text) : undefined;
  if (chain === 'evm') return isEvmAddress(text) ? toChecksumAddress(text.slice(2)) : undefined;
  const payload = tronPayload(text);
  return payload ? base58check.encode(payload) : undefined;
}
