/**
 * Owns the ticker: runs only while something moves, at 30 fps while walking and 10 fps for sprite loops, and
 * stops when the scene is still or the page is hidden. Every change wakes it for at least one frame.
 *
 * Companion tickers run and stop with it. Pixi's system ticker is one: its pointer-over check would otherwise keep a
 * `requestAnimationFrame` loop alive for ever on a still page (nothing moves under a still pointer then).
 */
import type { Ticker } from 'pixi.js';
import type { Motion } from './World';

/** Ticker states the page hook reports. */
export interface LoopState {
  running: boolean;
  frames: number;
}

/** The frame loop around a Pixi ticker whose listeners include the application's render. */
export class FrameLoop {
  private frames = 0;
  private readonly onVisibility = () => (document.hidden ? this.stop() : this.wake());

  constructor(
    private readonly ticker: Ticker,
    private readonly step: (deltaMs: number) => Motion,
    private readonly companions: readonly Ticker[] = [],
  ) {
    for (const each of [ticker, ...companions]) {
      each.autoStart = false;
      each.stop();
    }
    ticker.add(this.onTick, this);
    document.addEventListener('visibilitychange', this.onVisibility);
  }

  /** Asks for at least one more frame (a change to draw); ignored while the page is hidden. */
  wake(): void {
    if (document.hidden || this.ticker.started) return;
    this.ticker.start();
    for (const companion of this.companions) companion.start();
  }

  /** Whether the ticker runs and how many frames it has drawn. */
  get state(): LoopState {
    return { running: this.ticker.started, frames: this.frames };
  }

  /** Stops listening and stops the ticker. */
  dispose(): void {
    this.ticker.remove(this.onTick, this);
    this.stop();
    document.removeEventListener('visibilitychange', this.onVisibility);
  }

  private onTick(ticker: Ticker): void {
    this.frames += 1;
    // Cap the gap so a wake after a long stop does not jump walkers across the floor.
    const motion = this.step(Math.min(ticker.deltaMS, 100));
    if (motion === 'idle') this.stop();
    else ticker.maxFPS = motion === 'moving' ? 30 : 10;
  }

  private stop(): void {
    this.ticker.stop();
    for (const companion of this.companions) companion.stop();
  }
}
