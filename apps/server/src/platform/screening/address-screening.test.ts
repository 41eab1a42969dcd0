import { describe, expect, it } from 'vitest';
import { createLocalScreeningProvider, LocalListScreeningProvider, parseAddressList } from './address-screening.ts';

describe('address screening on the bundled OFAC SDN sample', () => {
  const provider = createLocalScreeningProvider();

  it('loads every bundled address', () => {
    // 621 lines in the five files; an address listed under two assets is counted once.
    expect(provider.size).toBeGreaterThan(600);
    expect(provider.size).toBeLessThanOrEqual(621);
  });

  it('finds a listed Ethereum address in any case, on Ethereum and ERC20', async () => {
    const listed = '0x01e2919679362dFBC9ee1644Ba9C6da6D6245BB1';
    expect(await provider.screen('Ethereum', listed)).toEqual({
      status: 'hit',
      listName: 'OFAC SDN',
      address: listed.toLowerCase(),
    });
    expect(await provider.screen('ERC20', listed.toLowerCase())).toMatchObject({ status: 'hit' });
    expect(await provider.screen('ERC20', listed.toUpperCase().replace('0X', '0x'))).toMatchObject({ status: 'hit' });
  });

  it('finds a listed Bitcoin and TRON address, where case matters', async () => {
    expect(await provider.screen('Bitcoin', '123WBUDmSJv4GctdVEz6Qq6z8nXSKrJ4KX')).toMatchObject({
      status: 'hit',
      listName: 'OFAC SDN',
    });
    expect(await provider.screen('Bitcoin', '123wbudmsjv4gctdvez6qq6z8nxskrj4kx')).toEqual({ status: 'clear' });
    expect(await provider.screen('TRC20', 'TBHTJqAy4DhHhmT3dNceJYNRz4SdLofLre')).toMatchObject({ status: 'hit' });
  });

  it('clears an unlisted address', async () => {
    // The EIP-55 example address and the BIP 173 example address: real, not sanctioned.
    expect(await provider.screen('Ethereum', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed')).toEqual({
      status: 'clear',
    });
    expect(await provider.screen('Bitcoin', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toEqual({ status: 'clear' });
  });
});

describe('local list provider', () => {
  it('compares bech32 addresses case-insensitively and skips comments', async () => {
    const provider = new LocalListScreeningProvider([
      {
        listName: 'Test list',
        addresses: parseAddressList('# header\nBC1QW508D6QEJXTDG4Y5R3ZARVARY0C5XW7KV8F3T4 # upper case\n\n'),
      },
    ]);
    expect(await provider.screen('Bitcoin', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toMatchObject({
      status: 'hit',
      listName: 'Test list',
    });
    // An unknown network falls back to the address's shape.
    expect(await provider.screen('Lightning', 'bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4')).toMatchObject({
      status: 'hit',
    });
  });
});
