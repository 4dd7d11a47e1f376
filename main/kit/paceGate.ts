/**
 * Paces a piece of work that many changes ask for: it runs at once when it last ran its interval ago or more, else
 * once that much has passed since; the asks in between share that one run. The interval is asked at each ask, so it
 * can follow the size of what the work covers (the fleet's seats).
 */
export class PaceGate {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private last = 0;

  constructor(
    private readonly run: () => void,
    private readonly interval: () => number,
  ) {}

  /** The work just ran (from this gate, or from a caller that ran it directly). */
  ran(): void {
    this.last = Date.now();
  }

  /** Runs the work now, or once its interval since the last run has passed. */
  ask(): void {
    if (this.timer) return;
    const wait = this.last + this.interval() - Date.now();
    if (wait <= 0) return this.run();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.run();
    }, wait);
    this.timer.unref?.();
  }

  /** Drops a run still waiting. */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
