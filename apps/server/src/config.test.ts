import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

describe('loadConfig', () => {
  it('defaults to the embedded database on port 3000', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.database).toEqual({ kind: 'pglite', dataDir: './data' });
    expect(config.seedDemo).toBe(true);
    expect(config.publicUrl).toBe('http://localhost:3000');
  });

  it('reads PostgreSQL and in-memory database URLs', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db' }).database).toEqual({ kind: 'postgres', url: 'postgres://u@h:5432/db' });
    expect(loadConfig({ DATABASE_URL: 'memory://' }).database).toEqual({ kind: 'memory' });
  });

  it('refuses bad values with a message naming each variable', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as ConfigError).message;
      expect(message).toContain('PORT');
      expect(message).toContain('DATABASE_URL must be postgres://… or memory://');
      expect(message).toContain('LOG_LEVEL');
    }
  });

  it('requires a session secret and public URL in production and never seeds there', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrowError(/SESSION_SECRET is required in production/);
    // Production also needs the custody webhook secret and the deposit xpubs (issue 4): no generated keys there.
    expect(() => loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32), PUBLIC_URL: 'https://meridian.example' })).toThrowError(
      /CUSTODY_WEBHOOK_SECRET is required in production/,
    );
    const xpub = 'xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8';
    const config = loadConfig({
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(32),
      PUBLIC_URL: 'https://meridian.example',
      PRICE_SOURCES: 'replay',
      CUSTODY_WEBHOOK_SECRET: 'y'.repeat(32),
      WALLET_XPUB_BITCOIN: xpub,
      WALLET_XPUB_EVM: xpub,
      WALLET_XPUB_TRON: xpub,
    });
    expect(config.seedDemo).toBe(false);
    expect(config.wallet.xpubs?.evm).toBe(xpub);
  });
});
