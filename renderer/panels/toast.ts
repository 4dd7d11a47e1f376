/**
 * The toast: a confirmation shown in the world for a moment ("Bramble is now a Reviewer"). Its box is a polite live
 * region, so screen readers hear each confirmation once; the text leaves when the toast fades.
 */
import type { AppStore } from '../store/createAppStore';
import { element } from './dom';

/** Milliseconds a toast stays in view. */
export const TOAST_MS = 3000;

/** The toast element, following the store's last confirmation. */
export function createToast(store: AppStore): HTMLElement {
  const text = element('span', { 'data-toast-text': true });
  const root = element('div', { class: 'toast pixel-panel', 'data-panel': 'toast', role: 'status', 'aria-live': 'polite', 'aria-atomic': 'true' }, text);
  root.hidden = true;
  let shown: number | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const follow = () => {
    const toast = store.getState().ui.toast;
    if (!toast || toast.id === shown) return;
    shown = toast.id;
    text.textContent = toast.text;
    root.hidden = false;
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(() => {
      root.hidden = true;
      text.textContent = '';
    }, TOAST_MS);
  };
  store.subscribe(follow);
  follow();
  return root;
}
