import { createHmac } from 'node:crypto';
import { apiCanonicalString } from '@meridian/contracts/api-keys';
import { describe, expect, it } from 'vitest';
import { isValidApiSignature, isWithinRecvWindow, signApiRequest } from './request-signing.ts';

/** The developer API (docs/api.md): the HMAC-SHA256 request signature and the receive window. */
describe('developer API request signing', () => {
  const secret = 'A'.repeat(43);
  const parts = {
    timestamp: '1764000000000',
    method: 'post',
    requestTarget: '/api/exchange/swap?x=1',
    body: '{"quoteId":"0b9f"}',
  };

  it('signs timestamp + METHOD + path?query + body with HMAC-SHA256 in lower-case hex', () => {
    expect(apiCanonicalString(parts.timestamp, parts.method, parts.requestTarget, parts.body)).toBe(
      '1764000000000POST/api/exchange/swap?x=1{"quoteId":"0b9f"}',
    );
    const expected = createHmac('sha256', secret)
      .update('1764000000000POST/api/exchange/swap?x=1{"quoteId":"0b9f"}')
      .digest('hex');
    expect(signApiRequest(secret, parts)).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
  });

  it('accepts the signature and refuses any change of a covered part, another secret, or a malformed value', () => {
    const signature = signApiRequest(secret, parts);
    expect(isValidApiSignature(secret, parts, signature)).toBe(true);
    for (const changed of [
      { ...parts, timestamp: '1764000000001' },
      { ...parts, method: 'PUT' },
      { ...parts, requestTarget: '/api/exchange/swap?x=2' },
      { ...parts, body: '{"quoteId":"0b9e"}' },
    ])
      expect(isValidApiSignature(secret, changed, signature)).toBe(false);
    expect(isValidApiSignature(`${secret}x`, parts, signature)).toBe(false);
    expect(isValidApiSignature(secret, parts, signature.toUpperCase())).toBe(false);
    expect(isValidApiSignature(secret, parts, signature.slice(0, 63))).toBe(false);
    expect(isValidApiSignature(secret, parts, '')).toBe(false);
  });

  it('keeps a timestamp within the window either way and refuses non-numbers', () => {
    const now = 1_764_000_000_000;
    expect(isWithinRecvWindow(String(now - 5_000), now, 5_000)).toBe(true);
    expect(isWithinRecvWindow(String(now + 5_000), now, 5_000)).toBe(true);
    expect(isWithinRecvWindow(String(now - 5_001), now, 5_000)).toBe(false);
    expect(isWithinRecvWindow(String(now + 5_001), now, 5_000)).toBe(false);
    for (const bad of ['', '-1', '1.5e12', '17640000000000000', 'now'])
      expect(isWithinRecvWindow(bad, now, 5_000)).toBe(false);
  });
});
