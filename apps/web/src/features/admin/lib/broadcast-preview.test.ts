import { describe, expect, it } from 'vitest';
import { broadcastPreview } from './broadcast-preview.ts';

describe('broadcastPreview', () => {
  const draft = { titleEn: '  Maintenance ', titleZh: '系統維護', bodyEn: 'Sunday 02:00–04:00', bodyZh: '   ' };

  it('shows each language its own texts, trimmed as the server stores them', () => {
    expect(broadcastPreview(draft, 'en-US')).toEqual({ title: 'Maintenance', body: 'Sunday 02:00–04:00' });
  });

  it('gives null for a text not written yet (blank or missing)', () => {
    expect(broadcastPreview(draft, 'zh-HK')).toEqual({ title: '系統維護', body: null });
    expect(broadcastPreview({}, 'en-US')).toEqual({ title: null, body: null });
  });
});
