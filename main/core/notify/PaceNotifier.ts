/**
 * The budget warnings' notifier (issue 41): fed by the fleet's snapshots, it decides with paceRules.ts and hands the
 * notes to the same delivery as the needs-you notifier (the Electron shell, or the page in browser mode).
 */
import type { Notification } from '../../../shared/contract';
import type { BudgetSettings } from '../../../shared/pace';
import type { FleetSnapshot } from '../../../shared/schemas';
import { decidePaceNotes, type PaceMarks } from './paceRules';

/** Options of the pace notifier. */
export interface PaceNotifierOptions {
  fleet: { onChange(listener: (snapshot: FleetSnapshot) => void): () => void };
  budget: BudgetSettings;
  sound: boolean;
  deliver: (note: Notification) => void;
  now?: () => number;
  log?: (message: string) => void;
}

/** Turns budget facts into notifications; `dispose()` stops listening. */
export class PaceNotifier {
  private marks: PaceMarks | null = null;
  private readonly off: () => void;

  constructor(private readonly options: PaceNotifierOptions) {
    this.off = options.fleet.onChange((snapshot) => this.onSnapshot(snapshot));
  }

  private onSnapshot(snapshot: FleetSnapshot): void {
    const { notes, marks } = decidePaceNotes(this.marks, snapshot, this.options.budget, (this.options.now ?? Date.now)(), this.options.sound);
    this.marks = marks;
    for (const note of notes) {
      try {
        this.options.deliver(note);
      } catch (error) {
        this.options.log?.(`pixelfleet: a notification could not be shown: ${String(error)}`);
      }
    }
  }

  /** Stops listening. */
  dispose(): void {
    this.off();
  }
}
