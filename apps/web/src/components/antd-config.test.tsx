// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { prepareAntd } from './antd-config.tsx';

const stylesLink = () => document.head.querySelector<HTMLLinkElement>('link[data-antd-styles]');

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
});
