import { describe, expect, it } from 'vitest';
import { BANNER_IMAGE_ACCEPT, isSendableBannerImage } from './upload-banner-image.ts';

/** The banner form's pre-check spares doomed uploads: PNG, JPEG or WebP by declared type, 2 MB at most. */
describe('isSendableBannerImage', () => {
  it('takes the three image types up to 2 MB, and nothing else', () => {
    expect(isSendableBannerImage({ type: 'image/png', size: 1024 })).toBe(true);
    expect(isSendableBannerImage({ type: 'image/webp', size: 2 * 1024 * 1024 })).toBe(true);
    expect(isSendableBannerImage({ type: 'image/jpeg', size: 2 * 1024 * 1024 + 1 })).toBe(false);
    expect(isSendableBannerImage({ type: 'image/gif', size: 10 })).toBe(false);
    expect(isSendableBannerImage({ type: 'application/pdf', size: 10 })).toBe(false);
    expect(BANNER_IMAGE_ACCEPT).toBe('image/png,image/jpeg,image/webp');
  });
});
