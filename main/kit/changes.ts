/**
 * The one change emitter of the services. A service that changes state announces it here, and whoever follows it
 * (the fleet follows the persona and work services; the jobs board and notifier follow the fleet) listens. `emit`
 * resolves once every listener's own work has finished, so a write that awaits its announcement returns only after
 * the fleet has taken the census that shows it: no handler has to remember to wrap a write.
 */
export type ChangeListener<T> = (value: T) => void | Promise<void>;

export class Changes<T = void> {
  private readonly listeners = new Set<ChangeListener<T>>();

  /** `what` names the emitter in the one line logged when a listener fails. */
  constructor(
    private readonly what: string,
    private readonly log: (message: string) => void = () => {},
  ) {}

  /** Adds a listener; returns the function that removes it. */
  on(listener: ChangeListener<T>): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Tells every listener; a failing listener is logged and never stops the others or fails the change. */
  async emit(value: T): Promise<void> {
    await Promise.all(
      [...this.listeners].map(async (listener) => {
        try {
          await listener(value);
        } catch (error) {
          this.log(`pixelfleet: a ${this.what} listener failed: ${(error as Error)?.message ?? String(error)}`);
        }
      }),
    );
  }

  /** Forgets every listener (on dispose). */
  clear(): void {
    this.listeners.clear();
  }
}
