import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readOrCreateSecret, readOrCreateSecretFile } from './secrets.ts';

describe('readOrCreateSecretFile', () => {
  it('creates the file once with mode 0600 and reads it back afterwards', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'secrets-'));
    const first = readOrCreateSecret(dataDir, 'session-secret');
    expect(first).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(readOrCreateSecret(dataDir, 'session-secret')).toBe(first);
    expect(statSync(join(dataDir, 'secrets', 'session-secret')).mode & 0o777).toBe(0o600);
  });

  it('returns the file of a process that got there first, and leaves no temporary file', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'secrets-'));
    // Another process writes the file between this one's read and its link.
    const value = readOrCreateSecretFile(dataDir, 'vapid.json', () => {
      writeFileSync(join(dataDir, 'secrets', 'vapid.json'), '{"from":"other"}', { flag: 'wx' });
      return '{"from":"this"}';
    });
    expect(value).toBe('{"from":"other"}');
    expect(readFileSync(join(dataDir, 'secrets', 'vapid.json'), 'utf8')).toBe('{"from":"other"}');
    expect(readdirSync(join(dataDir, 'secrets'))).toEqual(['vapid.json']);
  });
});
