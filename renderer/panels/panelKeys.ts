/** Keyboard behaviour the panels share: Escape closes a panel, and Tab stays inside a panel that has the focus. */

const FOCUSABLE = 'button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), a[href], summary, [tabindex]:not([tabindex="-1"])';

/** The elements of `root` Tab can reach, in order (hidden ones left out). */
function focusables(root: HTMLElement): HTMLElement[] {
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((node) => node.getClientRects().length > 0);
}

/** Escape inside the panel closes it (the panel's own close, which also returns the focus where it belongs). */
export function closeOnEscape(root: HTMLElement, close: () => void): void {
  root.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    event.preventDefault();
    close();
  });
}

/**
 * Tab and Shift+Tab wrap around inside the panel while it has the focus, so the keyboard does not fall behind it into
 * the page; a click elsewhere still leaves it (the panels are not modal to the pointer).
 */
export function keepTabInside(root: HTMLElement): void {
  root.addEventListener('keydown', (event) => {
    if (event.key !== 'Tab') return;
    const nodes = focusables(root);
    if (nodes.length === 0) return;
    const first = nodes[0];
    const last = nodes[nodes.length - 1];
    if (event.shiftKey && (document.activeElement === first || !root.contains(document.activeElement))) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first.focus();
    }
  });
}
