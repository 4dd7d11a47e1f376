/** Which of the world's text labels (signs, counts, names, badges) a page panel covers: none may be, for a panel at rest. */
import type { Page } from '@playwright/test';

/** Each visible element of `selectors` that overlaps a label of the world, as "selector × kind id" (empty: none). */
export function labelsCovered(page: Page, selectors: string[], kinds: string[] = ['sign', 'count', 'name', 'host', 'badge']): Promise<string[]> {
  return page.evaluate(
    ({ selectors, kinds }) => {
      const labels = (window as unknown as { __pixelfleet: { labels(): { kind: string; id: string; x: number; y: number; width: number; height: number }[] } }).__pixelfleet
        .labels()
        .filter((label) => kinds.includes(label.kind));
      const found: string[] = [];
      for (const selector of selectors) {
        for (const node of document.querySelectorAll<HTMLElement>(selector)) {
          const box = node.getBoundingClientRect();
          if (node.closest('[hidden]') || box.width === 0 || box.height === 0) continue;
          for (const label of labels) {
            const apart = box.right <= label.x || label.x + label.width <= box.left || box.bottom <= label.y || label.y + label.height <= box.top;
            if (!apart) found.push(`${selector} × ${label.kind} ${label.id || '(lobby)'}`);
          }
        }
      }
      return found;
    },
    { selectors, kinds },
  );
}

/** The panels along the top edge that must never cover the world's labels. */
export const TOP_PANELS = ['[data-panel="toolbar"]', '[data-needs-you-queue]', '[data-needs-you-host-filter]', '[data-panel="notices"]'];
