import { describe, expect, it } from 'vitest';
import { apiKeyFailure, parseIpList } from './api-key-form.ts';

describe('parseIpList', () => {
  it('splits on new lines, commas and spaces, dropping empty entries', () => {
    expect(parseIpList('203.0.113.7\n198.51.100.0/24, 2001:db8::1  192.0.2.1,,\n')).toEqual([
      '203.0.113.7',
      '198.51.100.0/24',
      '2001:db8::1',
      '192.0.2.1',
    ]);
    expect(parseIpList('')).toEqual([]);
    expect(parseIpList(undefined)).toEqual([]);
    expect(parseIpList(' \n , ')).toEqual([]);
  });
});

describe('apiKeyFailure', () => {
  const refused = (fields: { field: string; message: string }[]) => ({
    statusCode: 120,
    message: 'Invalid input',
    content: { fields },
  });

  it('puts each field first message on its input, any allowlist entry on the text box, with no alert', () => {
    const outcome = apiKeyFailure(
      refused([
        { field: 'label', message: 'Too long' },
        { field: 'ipAllowlist.3', message: 'Not an IP address' },
        { field: 'ipAllowlist.5', message: 'Not an IP address either' },
        { field: 'label', message: 'Second message' },
      ]),
    );
    expect(outcome).toEqual({
      fieldErrors: [
        { name: 'label', errors: ['Too long'] },
        { name: 'ipText', errors: ['Not an IP address'] },
      ],
      alert: null,
    });
  });

  it('a field the form lacks, or another refusal, is the alert', () => {
    expect(apiKeyFailure(refused([{ field: 'body', message: 'Unknown key' }]))).toEqual({
      fieldErrors: [],
      alert: 'Invalid input',
    });
    expect(apiKeyFailure({ statusCode: 170, message: 'Bind the authenticator first', content: null })).toEqual({
      fieldErrors: [],
      alert: 'Bind the authenticator first',
    });
  });
});
