import { deflateSync } from 'node:zlib';
import { type Browser, expect, type Locator, type Page } from '@playwright/test';
import {
  type BackOfficeLocale,
  backOfficeTest,
  firstSignIn,
  openPage,
  ROOT_ADMIN_EMAIL,
} from './back-office-session.ts';
import { snap } from './helpers.ts';

/**
 * Banner images uploaded in the back office (an image per language;
 * docs/back-office.md "Uploaded banner images"), on the production build at desktop width, the
 * operator in each language: the admin opens a new banner, is refused an oversized PNG and a text
 * file (the form's own check) and a text file named .png (the server's check of the content), each
 * with the message in the operator's language under the field; uploads one PNG for English and
 * another for Traditional Chinese, saves the banner and moves it to the front; the customers' home
 * page then shows the English upload in English and the Chinese upload in Chinese. The server's
 * own refusal of an oversized file names the field in the operator's language too.
 */
const CUSTODY_SECRET = 'e2e-banner-upload-custody-secret-0123456789';

const test = backOfficeTest('banner-upload', CUSTODY_SECRET);
// The back office is a desktop application: both languages run on the desktop project.
test.skip(({ isMobile }) => isMobile, 'the back office runs on the desktop project');

/** Bytes of a PNG (2 MB, the server's and the form's limit). */
const BANNER_IMAGE_BYTES_MAX = 2 * 1024 * 1024;

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) crc = CRC_TABLE[(crc ^ byte) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A `width` × `height` PNG of one RGB colour: each language's image has its own size, so the page shows which one it got. */
function solidPng(width: number, height: number, [red, green, blue]: [number, number, number]): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter method, no interlace
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x += 1) row.set([red, green, blue], 1 + x * 3);
  const pixels = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The two uploads, told apart on the home page by their widths. */
const IMAGES = {
  'en-US': { name: 'spring-en.png', width: 160, height: 60, buffer: solidPng(160, 60, [20, 90, 200]) },
  'zh-HK': { name: 'spring-zh.png', width: 120, height: 45, buffer: solidPng(120, 45, [200, 40, 40]) },
} as const;
/** A PNG signature followed by zeros: one byte over the limit. */
const OVERSIZED = Buffer.concat([IMAGES['en-US'].buffer, Buffer.alloc(BANNER_IMAGE_BYTES_MAX + 1)]).subarray(
  0,
  BANNER_IMAGE_BYTES_MAX + 1,
);
const TEXT_FILE = Buffer.from('not an image, just some notes\n');

const TEXT = {
  'en-US': {
    banners: 'Banners',
    newBanner: 'New banner',
    titleEn: 'Title (English)',
    titleZh: 'Title (Traditional Chinese)',
    link: 'Link',
    save: 'Save',
    up: 'Up',
    refusedByForm: (name: string) => `${name}: choose a PNG, JPEG or WebP file of at most 2 MB`,
    refusedByServer: (name: string) => `${name}: File format not supported yet (PNG, JPEG or WebP)`,
    tooLarge: (name: string) => `${name}: File size exceeded (at most 2 MB)`,
  },
  'zh-HK': {
    banners: '橫幅',
    newBanner: '新增橫幅',
    titleEn: '標題（英文）',
    titleZh: '標題（繁體中文）',
    link: '連結',
    save: '儲存',
    up: '上移',
    refusedByForm: (name: string) => `${name}：請選擇最多 2 MB 的 PNG、JPEG 或 WebP 檔案`,
    refusedByServer: (name: string) => `${name}：暫不支援此檔案格式（PNG、JPEG 或 WebP）`,
    tooLarge: (name: string) => `${name}：檔案大小超出上限（最多 2 MB）`,
  },
} as const;

/** Pick `file` with the upload button `button` (the browser's file chooser, as an operator would). */
async function pick(page: Page, button: Locator, file: { name: string; mimeType: string; buffer: Buffer }) {
  const chooser = page.waitForEvent('filechooser');
  await button.click();
  await (await chooser).setFiles(file);
}

/** The `src` of a preview (antd's Image puts the test id on the image or on its wrapper). */
async function previewSrc(preview: Locator): Promise<string> {
  return preview.evaluate((element) =>
    (element.tagName === 'IMG' ? element : element.querySelector('img'))!.getAttribute('src')!,
  );
}

/** The customers' home page in `locale`: the first slide's image (its path and natural width once loaded). */
async function firstSlide(browser: Browser, baseURL: string, locale: BackOfficeLocale) {
  const page = await openPage(browser, baseURL, locale);
  await page.goto('/');
  const image = page.getByTestId('banner-slide').first().locator('img');
  await expect(image).toBeVisible();
  const naturalWidth = () => image.evaluate((element) => (element as unknown as { naturalWidth: number }).naturalWidth);
  await expect.poll(naturalWidth).toBeGreaterThan(0);
  const seen = {
    src: await image.getAttribute('src'),
    alt: await image.getAttribute('alt'),
    naturalWidth: await naturalWidth(),
  };
  return { page, seen };
}

for (const locale of ['en-US', 'zh-HK'] as const) {
  test(`banner images: refused files named in the operator's language, an upload per language shown on the home page (${locale})`, async ({
    browser,
    ownServer,
    prepared: rootPassword,
  }, testInfo) => {
    test.setTimeout(300_000);
    const text = TEXT[locale];
    const tag = Date.now().toString(36);
    const titles = { 'en-US': `Spring offer ${tag}`, 'zh-HK': `春季優惠 ${tag}` };

    const admin = await openPage(browser, ownServer, locale);
    await firstSignIn(admin, locale, ROOT_ADMIN_EMAIL, String(rootPassword));
    await admin.getByRole('menuitem', { name: text.banners, exact: true }).click();
    await admin.getByRole('button', { name: text.newBanner, exact: true }).click();
    const dialog = admin.getByRole('dialog');
    const uploadEn = dialog.getByTestId('banner-upload-en');
    const uploadZh = dialog.getByTestId('banner-upload-zh');

    // Refused before sending: over 2 MB, and not an image type.
    await pick(admin, uploadEn, { name: 'huge.png', mimeType: 'image/png', buffer: OVERSIZED });
    await expect(dialog.getByRole('alert').filter({ hasText: text.refusedByForm('huge.png') })).toBeVisible();
    await pick(admin, uploadZh, { name: 'notes.txt', mimeType: 'text/plain', buffer: TEXT_FILE });
    await expect(dialog.getByRole('alert').filter({ hasText: text.refusedByForm('notes.txt') })).toBeVisible();
    // Refused by the server, which reads the content: a text file named and typed as a PNG.
    await pick(admin, uploadEn, { name: 'disguised.png', mimeType: 'image/png', buffer: TEXT_FILE });
    await expect(dialog.getByRole('alert').filter({ hasText: text.refusedByServer('disguised.png') })).toBeVisible();
    await snap(admin, testInfo, 'refused', `banner-upload-${locale}-`);

    // The server's own size check, in the operator's language, naming the field.
    const tooLarge = await admin.request.post('/api/admin/banners/images', {
      headers: { 'x-meridian-client': 'web', 'user-lang': locale },
      multipart: { image: { name: 'huge.png', mimeType: 'image/png', buffer: OVERSIZED } },
    });
    const refusal = await tooLarge.json();
    expect(refusal.statusCode).toBe(120);
    expect(refusal.content.fields[0]).toMatchObject({ field: 'image', message: text.tooLarge('huge.png') });

    // One PNG per language; each preview shows the uploaded image, and the refusals are gone.
    await pick(admin, uploadEn, { ...IMAGES['en-US'], mimeType: 'image/png' });
    await expect(dialog.getByTestId('banner-preview-en')).toBeVisible();
    await expect
      .poll(() => previewSrc(dialog.getByTestId('banner-preview-en')))
      .toMatch(/^\/api\/market\/banner\/image\//);
    await pick(admin, uploadZh, { ...IMAGES['zh-HK'], mimeType: 'image/png' });
    await expect
      .poll(() => previewSrc(dialog.getByTestId('banner-preview-zh')))
      .not.toBe(await previewSrc(dialog.getByTestId('banner-preview-en')));
    await expect(dialog.getByRole('alert')).toHaveCount(0);
    const paths = {
      'en-US': await previewSrc(dialog.getByTestId('banner-preview-en')),
      'zh-HK': await previewSrc(dialog.getByTestId('banner-preview-zh')),
    };
    expect(paths['zh-HK']).toMatch(/^\/api\/market\/banner\/image\//);

    await dialog.getByLabel(text.titleEn, { exact: true }).fill(titles['en-US']);
    await dialog.getByLabel(text.titleZh, { exact: true }).fill(titles['zh-HK']);
    await dialog.getByLabel(text.link, { exact: true }).fill('/product/earn');
    await snap(admin, testInfo, 'uploaded', `banner-upload-${locale}-`);
    await dialog.getByRole('button', { name: text.save, exact: true }).click();
    await expect(dialog).toBeHidden();

    // Saved last; moved to the front so that the home page's first slide is this banner.
    const rows = admin.locator('.ant-table-tbody tr.ant-table-row');
    const position = () =>
      rows.evaluateAll(
        (elements, title) => elements.findIndex((row) => row.textContent?.includes(title)),
        titles[locale],
      );
    await expect.poll(position).toBeGreaterThan(0);
    while ((await position()) > 0) {
      const before = await position();
      await rows.nth(before).getByRole('button', { name: text.up, exact: true }).click();
      await expect.poll(position).toBe(before - 1);
    }
    await snap(admin, testInfo, 'list', `banner-upload-${locale}-`);

    // The customers' home page, in each language, shows that language's upload.
    for (const customerLocale of ['en-US', 'zh-HK'] as const) {
      const { page, seen } = await firstSlide(browser, ownServer, customerLocale);
      expect(seen).toEqual({
        src: paths[customerLocale],
        alt: titles[customerLocale],
        naturalWidth: IMAGES[customerLocale].width,
      });
      await snap(page, testInfo, `home-${customerLocale}`, `banner-upload-${locale}-`);
      await page.context().close();
    }
  });
}
