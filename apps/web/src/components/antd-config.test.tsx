// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { FULL_ANTD_STYLES, prepareAntd } from './antd-config.tsx';

const stylesLink = () => document.head.querySelector<HTMLLinkElement>('link[data-antd-styles]');
const stylesLinks = () => [...document.head.querySelectorAll<HTMLLinkElement>('link[data-antd-styles]')];

/** Marks every link of Ant Design's styles as loaded. */
function loadAll(): void {
  for (const link of stylesLinks()) link.dispatchEvent(new Event('load'));
}

/** Waits until `prepareAntd`'s link to Ant Design's styles is in the head (after the locale's import). */
async function linkAdded(): Promise<HTMLLinkElement> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const link = stylesLink();
    if (link) return link;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('no link to Ant Design’s styles');
}

describe('prepareAntd', () => {
  it("puts Ant Design's styles first in the head, and after a failed load tries again with a new link", async () => {
    document.head.innerHTML = '<link rel="stylesheet" href="/assets/app.css">';
    const first = prepareAntd();
    const link = await linkAdded();
    expect(document.head.firstElementChild).toBe(link);
    expect(link.rel).toBe('stylesheet');

    link.dispatchEvent(new Event('error'));
    await expect(first).rejects.toThrow("Ant Design's styles did not load");
    expect(stylesLink()).toBeNull();

    const second = prepareAntd();
    const retried = await linkAdded();
    expect(retried).not.toBe(link);
    retried.dispatchEvent(new Event('load'));
    await expect(second).resolves.toBeUndefined();
  });

  it("loads an island's own file alone, and the full file after it for anything else, so the full file's order decides the cascade", async () => {
    document.head.innerHTML = '<link rel="stylesheet" href="/assets/app.css">';
    const loan = '/assets/loan-borrow.css';
    const first = prepareAntd(loan);
    await linkAdded();
    loadAll();
    await first;
    expect(stylesLinks().map((link) => link.dataset.antdStyles)).toEqual([loan]);

    // The same island again (a remount): nothing new.
    await prepareAntd(loan);
    expect(stylesLinks()).toHaveLength(1);

    // Another island: the full file, right after the first one and before the app's styles.
    const other = prepareAntd('/assets/exchange-panel.css');
    expect(stylesLinks().map((link) => link.dataset.antdStyles)).toEqual([loan, FULL_ANTD_STYLES]);
    expect(document.head.lastElementChild?.getAttribute('href')).toBe('/assets/app.css');
    loadAll();
    await other;

    // With the full file there, neither an island's file nor the full file loads again.
    await prepareAntd(loan);
    await prepareAntd();
    expect(stylesLinks()).toHaveLength(2);
  });
});
