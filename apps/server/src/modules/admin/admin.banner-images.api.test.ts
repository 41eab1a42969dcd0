import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CSRF_HEADER_VALUE, HEADER_CSRF } from '@meridian/contracts/http';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, mutationHeaders, type TestApp } from '../../../test/helpers.ts';
import { seedDemo } from '../../seed.ts';

/**
 * Uploaded banner images (an image per language; docs/back-office.md "Uploaded banner images") through the API: a
 * compliance operator uploads a PNG, JPEG or WebP (by magic bytes) of at most 2 MB through the
 * platform's upload rules; it is served to anyone at `/api/market/banner/image/:id` with its own
 * content type and a year of public caching; a banner may use it per language and the customer
 * list shows it; a bad type, a file too big or an unknown uploaded path is refused naming the
 * field in both languages; support may not upload (102); the upload is audited.
 */
const BOUNDARY = '----banner-test-boundary';
let t: TestApp;
let compliance: string;
let support: string;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({ env: { UPLOADS_DIR: mkdtempSync(join(tmpdir(), 'banner-uploads-')) } });
  await seedDemo(t.database.db);
  compliance = (await t.app.admin.createOperator('c1@example.com', 'compliance')).token;
  support = (await t.app.admin.createOperator('s1@example.com', 'support')).token;
  admin = (await t.app.admin.createOperator('a1@example.com', 'admin')).token;
});
afterAll(async () => {
  await t.close();
});

function upload(token: string, file: { name: string; bytes: Buffer; field?: string }, lang = 'en-US') {
  const payload = Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${file.field ?? 'image'}"; filename="${file.name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    file.bytes,
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
  return t.app.inject({
    method: 'POST',
    url: '/api/admin/banners/images',
    headers: {
      authorization: `Bearer ${token}`,
      [HEADER_CSRF]: CSRF_HEADER_VALUE,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      'user-lang': lang,
    },
    payload,
  });
}

function call(token: string, method: 'GET' | 'POST' | 'PUT', url: string, payload?: object, lang = 'en-US') {
  return t.app.inject({
    method,
    url: `/api/admin${url}`,
    headers: { ...mutationHeaders(), authorization: `Bearer ${token}`, 'user-lang': lang },
    ...(payload ? { payload } : {}),
  });
}

/** A small real picture in `format`. */
function picture(format: 'png' | 'jpeg' | 'webp'): Promise<Buffer> {
  const image = sharp({ create: { width: 32, height: 12, channels: 3, background: 'teal' } });
  return image.toFormat(format).toBuffer();
}

const BODY = {
  titleEn: 'Uploaded',
  titleZh: '已上載',
  webLink: '/invite',
  isBlank: false,
  startsAt: null,
  endsAt: null,
  isActive: true,
};

describe('banner images', () => {
  it('stores an image per language, serves it publicly with its type and caching, and shows it in the customer list', async () => {
    const en = (await upload(compliance, { name: 'spring.png', bytes: await picture('png') })).json();
    expect(en).toMatchObject({ statusCode: 200, content: { mimeType: 'image/png', fileName: 'spring.png' } });
    expect(en.content.path).toBe(`/api/market/banner/image/${en.content.id}`);
    const zh = (await upload(compliance, { name: '春.webp', bytes: await picture('webp') })).json();
    expect(zh.content.mimeType).toBe('image/webp');

    const served = await t.app.inject({ method: 'GET', url: zh.content.path });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.subarray(8, 12).toString('latin1')).toBe('WEBP');

    const created = (
      await call(compliance, 'POST', '/banners', {
        ...BODY,
        imagePath: en.content.path,
        imagePathZhHk: zh.content.path,
      })
    ).json();
    expect(created.statusCode).toBe(200);
    const list = async (lang: string) =>
      (await t.app.inject({ method: 'GET', url: '/api/market/banner/getList', headers: { 'User-Lang': lang } })).json()
        .content.content as { bannerId: string; bannerImg: string }[];
    expect((await list('en-US')).find((b) => b.bannerId === created.content.id)?.bannerImg).toBe(en.content.path);
    expect((await list('zh-HK')).find((b) => b.bannerId === created.content.id)?.bannerImg).toBe(zh.content.path);

    const audit = (await call(admin, 'GET', `/audit?action=uploadBannerImage`)).json().content.list;
    expect(audit).toContainEqual(
      expect.objectContaining({ targetType: 'banner-image', targetId: en.content.id, operatorEmail: 'c1@example.com' }),
    );
    expect(
      (
        await t.app.inject({ method: 'GET', url: '/api/market/banner/image/00000000-0000-4000-8000-000000000000' })
      ).json().statusCode,
    ).toBe(104);
  });

  it('refuses a file that is not PNG, JPEG or WebP by its content, naming the field in both languages', async () => {
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
    const en = (await upload(compliance, { name: 'fake.png', bytes: gif })).json();
    expect(en).toMatchObject({ statusCode: 120, content: { fields: [expect.objectContaining({ field: 'image' })] } });
    expect(en.message).toContain('PNG, JPEG or WebP');
    const zh = (
      await upload(compliance, { name: 'fake.png', bytes: Buffer.from('%PDF-1.4\n%%EOF\n') }, 'zh-HK')
    ).json();
    expect(zh).toMatchObject({ statusCode: 120, content: { fields: [expect.objectContaining({ field: 'image' })] } });
    expect(zh.message).toContain('暫不支援此檔案格式');
  });

  it('refuses a file over 2 MB, naming the field and the limit in both languages', async () => {
    const big = Buffer.concat([await picture('png'), Buffer.alloc(2 * 1024 * 1024 + 1)]);
    const en = (await upload(compliance, { name: 'big.png', bytes: big })).json();
    expect(en).toMatchObject({ statusCode: 120, content: { fields: [expect.objectContaining({ field: 'image' })] } });
    expect(en.message).toContain('2 MB');
    const zh = (await upload(compliance, { name: 'big.png', bytes: big }, 'zh-HK')).json();
    expect(zh.message).toContain('檔案大小超出上限');
  });

  it('refuses support (102) and a banner naming an uploaded image that does not exist (120 on the field)', async () => {
    expect((await upload(support, { name: 'a.png', bytes: await picture('png') })).json().statusCode).toBe(102);
    const response = (
      await call(
        compliance,
        'POST',
        '/banners',
        {
          ...BODY,
          imagePath: '/banners/earn.svg',
          imagePathZhHk: '/api/market/banner/image/00000000-0000-4000-8000-000000000000',
        },
        'zh-HK',
      )
    ).json();
    expect(response).toMatchObject({
      statusCode: 120,
      content: { fields: [expect.objectContaining({ field: 'imagePathZhHk' })] },
    });
    const bad = (
      await call(compliance, 'POST', '/banners', {
        ...BODY,
        imagePath: 'https://evil.example/x.png',
        imagePathZhHk: null,
      })
    ).json();
    expect(bad).toMatchObject({
      statusCode: 120,
      content: { fields: [expect.objectContaining({ field: 'imagePath' })] },
    });
  });
});
