// Temporary (not committed): island heights, CLS and screenshots of the product pages.
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH, serve } from './lib/serve.mjs';

const out = process.argv[2] ?? '/tmp/webperf-shots';
const paths = ['/', '/product/earn', '/exchange', '/loan', '/product/fiscard', '/product/trust'];
const server = await serve();
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
try {
  for (const width of [1280, 390]) {
    for (const locale of ['en-US', 'zh-HK']) {
      const context = await browser.newContext({ viewport: { width, height: 800 } });
      const page = await context.newPage();
      await page.addInitScript(() => {
        window.__cls = 0;
        new PerformanceObserver((list) => {
          for (const e of list.getEntries()) if (!e.hadRecentInput) window.__cls += e.value;
        }).observe({ type: 'layout-shift', buffered: true });
      });
      for (const path of paths) {
        await page.goto(`${server.baseUrl}${path}?locale=${locale}`, { waitUntil: 'networkidle' });
        await page.waitForTimeout(800);
        const info = await page.evaluate(() => {
          const h = (sel) => Math.round(document.querySelector(sel)?.getBoundingClientRect().height ?? -1);
          return {
            cls: window.__cls.toFixed(4),
            placeholder: document.querySelectorAll('.antd-island-placeholder').length,
            products: h('#products') + (document.querySelector('#calculator') ? h('#calculator') : 0),
            exchangePanel: h('.exchange-panel'),
            borrow: Math.round(
              (document.querySelector('#borrow .container')?.getBoundingClientRect().height ?? 0) -
                (document.querySelector('#borrow .section-head')?.getBoundingClientRect().height ?? 0),
            ),
          };
        });
        console.log(width, locale, path, JSON.stringify(info));
        const name = `${path === '/' ? 'home' : path.split('/').pop()}-${locale}-${width}.png`;
        await page.screenshot({ path: `${out}/${name}`, fullPage: path === '/product/earn' });
        await page.evaluate(() => (window.__cls = 0));
      }
      await context.close();
    }
  }
} finally {
  await browser.close();
  await server.stop();
}
