/**
 * The desktop delivery of notifications, written against the shape of Electron's `Notification` so it is tested
 * with a stand-in; `main/electron/` passes the real class. None while the window has focus; a click brings the
 * window forward and asks the page to focus that agent.
 */
import type { Notification } from '../../../shared/contract';

/** The part of Electron's `Notification` this uses. */
export interface DesktopNotification {
  on(event: 'click', listener: () => void): unknown;
  show(): void;
}

/** A constructor shaped like Electron's `Notification`. */
export interface DesktopNotificationClass {
  new (options: { title: string; body: string; silent?: boolean }): DesktopNotification;
  isSupported(): boolean;
}

/** What the delivery needs from the shell. */
export interface DesktopShell {
  Notification: DesktopNotificationClass;
  /** True while the app's window has the focus. */
  isFocused(): boolean;
  /** Brings the window forward and focuses the agent (a click on the notification). */
  focusAgent(personaId: string): void;
}

/** A delivery function for the notifier; returns whether a notification was shown. */
export function createDesktopDelivery(shell: DesktopShell): (note: Notification) => boolean {
  // Notifications are kept until clicked or replaced, so their click handlers are not collected early.
  const shown = new Map<string, DesktopNotification>();
  return (note) => {
    if (shell.isFocused() || !shell.Notification.isSupported()) return false;
    // The page plays the chime when it is on; the system sound would double it.
    const notification = new shell.Notification({ title: note.title, body: note.body, silent: true });
    // A job's notice is kept apart from its parent's needs-you one, so neither replaces the other.
    const tag = note.job ? note.job.id : note.seatId;
    notification.on('click', () => {
      shown.delete(tag);
      shell.focusAgent(note.personaId);
    });
    shown.set(tag, notification);
    notification.show();
    return true;
  };
}
