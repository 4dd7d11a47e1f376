/**
 * The one notifier: fed by the fleet's changes and the jobs board's reminder notices, it decides which deserve a
 * notification (notifyRules.ts) and hands them to the delivery — the Electron shell's `Notification`, or the page in
 * browser mode.
 */
import type { Notification } from '../../../shared/contract';
import type { FleetSnapshot } from '../../../shared/schemas';
import type { JobNotice } from '../jobs/reminders';
import type { NotifySettings } from './notifySettings';
import { decideNotifications, jobNotification, type StateMarks } from './notifyRules';

/** Job notice ids remembered to drop a repeat (rule N5); older ones are forgotten first. */
const REMEMBERED_JOB_NOTICES = 1000;

/** What the notifier listens to. */
export interface NotifierFleet {
  onChange(listener: (snapshot: FleetSnapshot) => void): () => void;
  lastTurnMs(seatId: string): number | null;
}

/** The reminder notices the notifier listens to (the jobs board). */
export interface NotifierJobs {
  onNotice(listener: (notice: JobNotice) => void): () => void;
}

/** Options of the notifier. */
export interface NotifierOptions {
  fleet: NotifierFleet;
  jobs?: NotifierJobs;
  settings: NotifySettings;
  deliver: (note: Notification) => void;
  log?: (message: string) => void;
}

/** Turns fleet changes into notifications; `dispose()` stops listening. */
export class NotifierService {
  private marks: StateMarks = null;
  private readonly jobNotices = new Set<string>();
  private readonly offs: Array<() => void>;

  constructor(private readonly options: NotifierOptions) {
    this.offs = [options.fleet.onChange((snapshot) => this.onSnapshot(snapshot))];
    if (options.jobs) this.offs.push(options.jobs.onNotice((notice) => this.onJobNotice(notice)));
  }

  private onSnapshot(snapshot: FleetSnapshot): void {
    const { notes, marks } = decideNotifications(this.marks, snapshot, (id) => this.options.fleet.lastTurnMs(id), this.options.settings);
    this.marks = marks;
    for (const note of notes) this.deliver(note);
  }

  private onJobNotice(notice: JobNotice): void {
    if (this.jobNotices.has(notice.id)) return; // N5: once per notice id
    this.jobNotices.add(notice.id);
    if (this.jobNotices.size > REMEMBERED_JOB_NOTICES) this.jobNotices.delete(this.jobNotices.values().next().value!);
    this.deliver(jobNotification(notice, this.options.settings));
  }

  private deliver(note: Notification): void {
    try {
      this.options.deliver(note);
    } catch (error) {
      this.options.log?.(`pixelfleet: a notification could not be shown: ${String(error)}`);
    }
  }

  /** Stops listening to the fleet and the jobs board. */
  dispose(): void {
    for (const off of this.offs) off();
  }
}
