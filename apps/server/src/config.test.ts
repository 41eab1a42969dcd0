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

  it('takes the passkey relying party from WEBAUTHN_* or PUBLIC_URL, else leaves it to the request', () => {
    expect(loadConfig({}).webauthn).toEqual({ rpId: undefined, origins: undefined });
    expect(loadConfig({ PUBLIC_URL: 'https://app.meridian.example/' }).webauthn).toEqual({
      rpId: 'app.meridian.example',
      origins: ['https://app.meridian.example'],
    });
    expect(
      loadConfig({
        PUBLIC_URL: 'https://app.meridian.example',
        WEBAUTHN_RP_ID: 'meridian.example',
        WEBAUTHN_ORIGINS: 'https://app.meridian.example, https://m.meridian.example',
      }).webauthn,
    ).toEqual({ rpId: 'meridian.example', origins: ['https://app.meridian.example', 'https://m.meridian.example'] });
    expect(() => loadConfig({ WEBAUTHN_ORIGINS: 'not a url' })).toThrow(/WEBAUTHN_ORIGINS/);
  });

  it('reads PostgreSQL and in-memory database URLs', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u@h:5432/db' }).database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@h:5432/db',
    });
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

  it('reads the public site settings and refuses a licence line or link it cannot show', () => {
    expect(loadConfig({}).site).toMatchObject({ licences: [], miningUrl: undefined, legalEntity: undefined });
    expect(
      loadConfig({ SITE_LICENCES: 'SFC|Type 1|AAA111;;', SITE_EXCHANGE_URL: 'https://ex.example.com' }).site,
    ).toMatchObject({
      licences: [{ authority: 'SFC', licence: 'Type 1', number: 'AAA111' }],
      exchangeUrl: 'https://ex.example.com',
    });
    expect(() => loadConfig({ SITE_LICENCES: 'SFC only' })).toThrow(/SITE_LICENCES.*Authority\|Licence\|Number/);
    expect(() => loadConfig({ SITE_SOCIAL_X_URL: 'http://x.com/meridian' })).toThrow(
      /SITE_SOCIAL_X_URL must be an https/,
    );
  });

  it('puts uploads in DATA_DIR/uploads by default and in S3 only when all five S3 variables are set', () => {
    expect(loadConfig({ DATA_DIR: '/srv/meridian' }).uploads).toEqual({
      dir: '/srv/meridian/uploads',
      encryptionKey: undefined,
      s3: undefined,
    });
    expect(loadConfig({ UPLOADS_DIR: '/mnt/files', UPLOADS_ENCRYPTION_KEY: 'k'.repeat(32) }).uploads).toMatchObject({
      dir: '/mnt/files',
      encryptionKey: 'k'.repeat(32),
    });
    const s3 = {
      S3_ENDPOINT: 'https://s3.example',
      S3_BUCKET: 'meridian-kyc',
      S3_REGION: 'ap-east-1',
      S3_ACCESS_KEY_ID: 'AKIA1',
      S3_SECRET_ACCESS_KEY: 'secret',
    };
    expect(loadConfig(s3).uploads.s3).toEqual({
      endpoint: 'https://s3.example',
      bucket: 'meridian-kyc',
      region: 'ap-east-1',
      accessKeyId: 'AKIA1',
      secretAccessKey: 'secret',
    });
    expect(() => loadConfig({ S3_ENDPOINT: 'https://s3.example', S3_BUCKET: 'meridian-kyc' })).toThrowError(
      /S3_REGION is required when any S3_\* variable is set/,
    );
    expect(() => loadConfig({ UPLOADS_ENCRYPTION_KEY: 'short' })).toThrowError(
      /UPLOADS_ENCRYPTION_KEY must be at least 32 characters/,
    );
    expect(() => loadConfig({ ...s3, NODE_ENV: 'production' })).toThrowError(
      /UPLOADS_ENCRYPTION_KEY is required in production when uploads go to S3/,
    );
  });

  it('shortens the code resend wait only under NODE_ENV=test', () => {
    expect(loadConfig({}).codeResendAfterSeconds).toBe(59);
    expect(loadConfig({ NODE_ENV: 'test', CODE_RESEND_AFTER_SECONDS: '2' }).codeResendAfterSeconds).toBe(2);
    expect(() => loadConfig({ CODE_RESEND_AFTER_SECONDS: '2' })).toThrowError(
      /CODE_RESEND_AFTER_SECONDS is only allowed with NODE_ENV=test/,
    );
  });

  it('starts the clock at TEST_CLOCK_AT only under NODE_ENV=test', () => {
    expect(loadConfig({ NODE_ENV: 'test' }).testClockAt).toBeUndefined();
    expect(loadConfig({ NODE_ENV: 'test', TEST_CLOCK_AT: '2027-02-28T23:59:00+08:00' }).testClockAt).toEqual(
      new Date('2027-02-28T15:59:00Z'),
    );
    expect(() => loadConfig({ NODE_ENV: 'test', TEST_CLOCK_AT: '2027-02-28 23:59' })).toThrowError(/TEST_CLOCK_AT/);
    expect(() => loadConfig({ TEST_CLOCK_AT: '2027-02-28T23:59:00+08:00' })).toThrowError(
      /TEST_CLOCK_AT is only allowed with NODE_ENV=test/,
    );
    expect(() => loadConfig({ NODE_ENV: 'production', TEST_CLOCK_AT: '2027-02-28T23:59:00+08:00' })).toThrowError(
      /TEST_CLOCK_AT is only allowed with NODE_ENV=test/,
    );
  });

  it('requires a session secret and public URL in production and never seeds there', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrowError(/SESSION_SECRET is required in production/);
    // Production also needs the custody webhook secret and the deposit xpubs: no generated keys there.
    expect(() =>
      loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32), PUBLIC_URL: 'https://meridian.example' }),
    ).toThrowError(/CUSTODY_WEBHOOK_SECRET is required in production/);
    const xpub =
      'xpub661MyMwAqRbcFtXgS5sYJABqqG9YLmC4Q1Rdap9gSE8NqtwybGhePY2gZ29ESFjqJoCu1Rupje8YtGqsefD265TMg7usUDFdp6W1EGMcet8';
    const production = {
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(32),
      PUBLIC_URL: 'https://meridian.example',
      PRICE_SOURCES: 'replay',
      CUSTODY_WEBHOOK_SECRET: 'y'.repeat(32),
      WALLET_XPUB_BITCOIN: xpub,
      WALLET_XPUB_EVM: xpub,
      WALLET_XPUB_TRON: xpub,
    };
    // The legal details of /about are required in production: no public placeholder there.
    expect(() => loadConfig(production)).toThrowError(/SITE_LEGAL_ENTITY is required in production/);
    const config = loadConfig({
      ...production,
      SITE_LEGAL_ENTITY: 'Meridian Digital Limited',
      SITE_REGISTERED_ADDRESS: '1 Queen’s Road Central, Hong Kong',
      SITE_LICENCES: 'Hong Kong Customs|Money Service Operator|12-34-56789',
    });
    expect(config.seedDemo).toBe(false);
    expect(config.site.legalEntity).toBe('Meridian Digital Limited');
    expect(config.wallet.xpubs?.evm).toBe(xpub);
  });
});
