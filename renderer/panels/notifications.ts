/**
 * The page's side of notifications. Main decides what deserves one; in browser mode the page shows it with the Web
 * Notifications API (permission asked on first use), none while the page has the focus; in the desktop app the
 * shell shows it and the page only plays the optional chime. A click (or the shell's `agent.focus`) picks the agent.
 */
import type { Notification as Note } from '../../shared/contract';
import type { Bridge } from '../bridge';
import { playChime } from './chime';

/** The Web Notifications API as the page uses it (a stand-in in tests). */
export interface WebNotifications {
  permission: string;
  requestPermission(): Promise<string>;
  new (title: string, options: { body: string; tag: string }): { onclick: ((event: Event) => void) | null };
}

/** What the page notifier needs. */
export interface PageNotifierOptions {
  bridge: Bridge;
  pick: (personaId: string) => void;
  api?: WebNotifications | null;
  hasFocus?: () => boolean;
  chime?: () => void;
}

/** Subscribes to `notify.show` and `agent.focus`; returns the unsubscribe function. */
export function attachNotifications(options: PageNotifierOptions): () => void {
  const api = options.api !== undefined ? options.api : ((globalThis as { Notification?: WebNotifications }).Notification ?? null);
  const hasFocus = options.hasFocus ?? (() => document.hasFocus());
  const chime = options.chime ?? playChime;
  const show = (note: Note) => {
    if (!api) return;
    // A job's notice is kept apart from its parent's needs-you one, so neither replaces the other.
    const notification = new api(note.title, { body: note.body, tag: note.job ? note.job.id : note.budget ? `budget:${note.budget.key}` : note.seatId });
    notification.onclick = () => {
      window.focus();
      options.pick(note.personaId);
    };
  };
  const offShow = options.bridge.on('notify.show', (note) => {
    if (note.sound) chime();
    if (options.bridge.kind === 'electron' || hasFocus() || !api) return;
    if (api.permission === 'granted') show(note);
    else if (api.permission === 'default') {
      void api.requestPermission().then((permission) => {
        if (permission === 'granted') show(note);
      });
    }
  });
  const offFocus = options.bridge.on('agent.focus', ({ personaId }) => options.pick(personaId));
  return () => {
    offShow();
    offFocus();
  };
}
