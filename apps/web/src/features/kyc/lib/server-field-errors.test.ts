import { describe, expect, it } from 'vitest';
import { fieldPathOf, splitFieldErrors } from './server-field-errors.ts';

describe('fieldPathOf', () => {
  it('turns list indexes into numbers', () => {
    expect(fieldPathOf('company.directors.0.name')).toEqual(['company', 'directors', 0, 'name']);
    expect(fieldPathOf('tin')).toEqual(['tin']);
  });
});

describe('splitFieldErrors', () => {
  it('puts the fields of the form under them and returns the first other message', () => {
    const response = {
      statusCode: 120,
      message: 'Validation failed',
      content: {
        fields: [
          { field: 'residences.1.tin', message: '請提供稅務編號或原因' },
          { field: 'certificateOfIncorporation', message: '請上載此文件' },
          { field: 'residences.1.tin', message: 'second' },
        ],
      },
    };
    expect(splitFieldErrors(response, ['residences'])).toEqual({
      onFields: [{ name: ['residences', 1, 'tin'], errors: ['請提供稅務編號或原因', 'second'] }],
      other: '請上載此文件',
    });
  });

  it('returns the message of any other refusal', () => {
    expect(splitFieldErrors({ statusCode: 141, message: 'Locked', content: null }, ['type'])).toEqual({
      onFields: [],
      other: 'Locked',
    });
  });
});
