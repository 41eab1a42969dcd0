import { describe, expect, it } from 'vitest';
import { flattenSubmitted } from './flatten-submitted.ts';

describe('flattenSubmitted', () => {
  it('walks objects and arrays into dotted paths, in order', () => {
    expect(
      flattenSubmitted({
        firstName: 'Chan',
        address: { city: 'Hong Kong', line2: '' },
        directors: [{ name: 'A' }],
        isPep: false,
      }),
    ).toEqual([
      { path: 'firstName', text: 'Chan' },
      { path: 'address.city', text: 'Hong Kong' },
      { path: 'address.line2', text: '—' },
      { path: 'directors.0.name', text: 'A' },
      { path: 'isPep', text: 'false' },
    ]);
  });

  it('shows nothing for no submission and a dash for an empty list', () => {
    expect(flattenSubmitted(null)).toEqual([]);
    expect(flattenSubmitted({ owners: [] })).toEqual([{ path: 'owners', text: '—' }]);
  });
});
