/**
 * The one notifier: fed by the fleet's changes, it decides which deserve a notification (notifyRules.ts) and hands
 * them to the delivery — the Electron shell's `Notification`, or the page in browser mode.
 */
import type { Notification } from '../../shared/contract';
import type { FleetSnapshot } from '../../shared/schemas';
import type { NotifySettings } from '../settings/notifySettings';
import { decideNotifications, type StateMarks } from './notifyRules';

/** What the notifier listens to. */
export interface NotifierFleet {
  onChange(listener: (snapshot: FleetSnapshot) => void): () => void;
  lastTurnMs(seatId: string): number | null;
}

/** Options of the notifier. */
export interface NotifierOptions {
  fleet: NotifierFleet;
  settings: NotifySettings;
  deliver: (note: Notification) => void;
  log?: (message: string) => void;
}

/** Turns fleet changes into notifications; `dispose()` stops listening. */
export class NotifierService {
  private marks: StateMarks = null;
  private readonly off: () => void;

  constructor(private readonly options: NotifierOptions) {
    this.off = options.fleet.onChange((snapshot) => this.onSnapshot(snapshot));
  }

  private onSnapshot(snapshot: FleetSnapshot): void {
    const { notes, marks } = decideNotifications(this.marks, snapshot, (id) => this.options.fleet.lastTurnMs(id), this.options.settings);
    this.marks = marks;
    for (const note of notes) {
      try {
        this.options.deliver(note);
      } catch (error) {
        this.options.log?.(`pixelfleet: a notification could not be shown: ${String(error)}`);
      }
    }
  }

  /** Stops listening to the fleet. */
  dispose(): void {
    this.off();
  }
}
