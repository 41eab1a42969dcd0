/** Ant Design's table scroll containers: `.ant-table-content` (scroll x) and `.ant-table-body` (scroll y). */
const SCROLL_AREA_SELECTOR = '.ant-table-content, .ant-table-body';

function makeFocusable(element: Element): void {
  if (!element.hasAttribute('tabindex')) element.setAttribute('tabindex', '0');
}

/**
 * Makes every table scroll area under `root` reachable by keyboard (tabindex 0), now and as tables
 * render: a table wider than its card scrolls sideways, and a keyboard user scrolls it with the
 * arrow keys once it has focus (WCAG 2.1.1; axe scrollable-region-focusable — an empty or
 * link-less table had no focusable content to scroll with). Answers the function that stops
 * watching.
 */
export function watchTableScrollAreas(root: HTMLElement): () => void {
  root.querySelectorAll(SCROLL_AREA_SELECTOR).forEach(makeFocusable);
  const observer = new MutationObserver((mutations) => {
    for (const mutation of mutations)
      for (const node of mutation.addedNodes) {
        if (!(node instanceof Element)) continue;
        if (node.matches(SCROLL_AREA_SELECTOR)) makeFocusable(node);
        node.querySelectorAll(SCROLL_AREA_SELECTOR).forEach(makeFocusable);
      }
  });
  observer.observe(root, { childList: true, subtree: true });
  return () => observer.disconnect();
}
