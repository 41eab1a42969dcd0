import { describe, expect, it } from 'vitest';
import { auditCsvHref, auditQueryOf } from './audit-csv.ts';

describe('auditCsvHref', () => {
  it('links the CSV with no query when no filter is set', () => {
    expect(auditCsvHref({})).toBe('/api/admin/audit.csv');
  });

  it('carries the same filters as the list, encoded, blanks left out', () => {
    const href = auditCsvHref({
      operator: 'a@b.co',
      action: 'user.freeze',
      targetId: '  ',
      from: '2026-11-01',
      to: '2026-11-25',
    });
    expect(href).toBe('/api/admin/audit.csv?operator=a%40b.co&action=user.freeze&from=2026-11-01&to=2026-11-25');
  });
});

describe('auditQueryOf', () => {
  it('trims texts and drops empty ones', () => {
    expect(auditQueryOf({ operator: ' x ', action: '', targetType: undefined })).toEqual({ operator: 'x' });
  });
});
