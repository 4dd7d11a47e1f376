/**
 * The connection line: "reconnecting…" while the host is away (it stopped or restarts), gone once it answers again.
 * The world underneath keeps what it showed; the store heals it with one whole read on reconnect.
 */
import type { Bridge } from '../bridge';

/** Shows the connection state on `parent` as `#connection[data-connection="open"|"reconnecting"]`. */
export function attachConnectionLine(bridge: Bridge, parent: HTMLElement): HTMLElement {
  const line = document.createElement('p');
  line.id = 'connection';
  line.className = 'connection';
  line.setAttribute('role', 'status');
  line.setAttribute('aria-live', 'polite');
  line.textContent = 'reconnecting…';
  const show = (state: 'open' | 'reconnecting') => {
    line.dataset.connection = state;
    line.hidden = state === 'open';
  };
  show('open');
  bridge.onDisconnected?.(() => show('reconnecting'));
  bridge.onReconnected(() => show('open'));
  parent.append(line);
  return line;
}
