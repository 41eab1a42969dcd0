import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { installPlatformOf, SERVICE_WORKER_PATH } from './pwa.ts';

const publicDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'public');
const read = (path: string) => readFileSync(join(publicDir, path));

/** Width and height from a PNG's IHDR chunk (bytes 16–23). */
function pngSize(bytes: Buffer): string {
  expect(bytes.subarray(1, 4).toString('latin1')).toBe('PNG');
  return `${bytes.readUInt32BE(16)}x${bytes.readUInt32BE(20)}`;
}

describe('the web app manifest', () => {
  const manifest = JSON.parse(read('manifest.webmanifest').toString('utf8')) as {
    start_url: string;
    scope: string;
    display: string;
    icons: { src: string; sizes: string; purpose: string }[];
  };
  const html = readFileSync(join(publicDir, '..', 'index.html'), 'utf8');

  it('makes the site installable: linked from index.html, standalone, with 192 and 512 px and maskable icons that exist', () => {
    expect(html).toContain('<link rel="manifest" href="/manifest.webmanifest" />');
    expect(manifest).toMatchObject({ start_url: '/', scope: '/', display: 'standalone' });
    for (const icon of manifest.icons) expect(pngSize(read(icon.src.slice(1)))).toBe(icon.sizes);
    expect(manifest.icons.map((icon) => `${icon.sizes} ${icon.purpose}`)).toEqual(
      expect.arrayContaining(['192x192 any', '512x512 any', '512x512 maskable']),
    );
    const touchIcon = /<link rel="apple-touch-icon" href="\/([^"]+)"/.exec(html)?.[1];
    expect(touchIcon && pngSize(read(touchIcon))).toBe('180x180');
  });

  it('has a service worker that precaches files that exist and handles fetches for the offline shell', () => {
    const worker = read(SERVICE_WORKER_PATH.slice(1)).toString('utf8');
    const shellFiles = /const SHELL_FILES = \[([^\]]+)\]/.exec(worker)?.[1] ?? '';
    const paths = [...shellFiles.matchAll(/'(\/[^']+)'/g)].map((match) => match[1]!);
    expect(paths).toEqual(expect.arrayContaining(['/favicon.svg', '/manifest.webmanifest', '/icons/icon-192.png']));
    expect(worker).toContain('SHELL_PAGE,');
    for (const path of paths) expect(() => read(path.slice(1))).not.toThrow();
    expect(worker).toContain("addEventListener('fetch'");
  });
});

describe('installPlatformOf', () => {
  it('picks the install steps of the device', () => {
    expect(
      installPlatformOf(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 Version/17.4 Safari',
      ),
    ).toBe('ios');
    // iPadOS reports a Mac; only touch tells them apart.
    expect(installPlatformOf('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Safari/605.1.15', 5)).toBe('ios');
    expect(installPlatformOf('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) Safari/605.1.15', 0)).toBe('other');
    expect(installPlatformOf('Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/126.0 Mobile Safari/537.36')).toBe(
      'android',
    );
  });
});
