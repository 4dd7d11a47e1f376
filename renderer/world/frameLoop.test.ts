import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FrameLoop, LOOPING_FPS, MOVING_FPS } from './frameLoop';
import type { Motion } from './World';

/**
 * A simulated page: a clock, timers, and animation frames on a 60 Hz display's beat (every 1000/60 ms), so the loop's
 * cadence can be counted over simulated seconds.
 */
class SimulatedPage {
  now = 0;
  private nextId = 1;
  private readonly timers = new Map<number, { at: number; run: () => void }>();
  private readonly frames = new Map<number, (now: number) => void>();
  private readonly saved = new Map<string, unknown>();

  install(): void {
    this.now = 0;
    this.timers.clear();
    this.frames.clear();
    const globals = globalThis as Record<string, unknown>;
    for (const name of ['document', 'requestAnimationFrame', 'cancelAnimationFrame', 'setTimeout', 'clearTimeout']) this.saved.set(name, globals[name]);
    this.saved.set('performance.now', performance.now);
    globals.document = { hidden: false, addEventListener() {}, removeEventListener() {} };
    globals.requestAnimationFrame = (callback: (now: number) => void) => {
      const id = this.nextId++;
      this.frames.set(id, callback);
      return id;
    };
    globals.cancelAnimationFrame = (id: number) => this.frames.delete(id);
    globals.setTimeout = (run: () => void, milliseconds = 0) => {
      const id = this.nextId++;
      this.timers.set(id, { at: this.now + Math.max(0, milliseconds), run });
      return id;
    };
    globals.clearTimeout = (id: number) => this.timers.delete(id);
    performance.now = () => this.now;
  }

  restore(): void {
    const globals = globalThis as Record<string, unknown>;
    for (const [name, value] of this.saved) if (name !== 'performance.now') globals[name] = value;
    performance.now = this.saved.get('performance.now') as () => number;
  }

  /** Runs timers and display beats until `until` (each beat's frame callbacks see the beat's time). */
  runUntil(until: number, work = 3): void {
    const beat = 1000 / 60;
    while (this.now < until) {
      const nextBeat = (Math.floor(this.now / beat + 1e-9) + 1) * beat;
      const timer = [...this.timers.entries()].sort((a, b) => a[1].at - b[1].at)[0];
      if (timer && timer[1].at <= nextBeat) {
        this.now = Math.max(this.now, timer[1].at);
        this.timers.delete(timer[0]);
        timer[1].run();
        continue;
      }
      this.now = nextBeat;
      const due = [...this.frames.values()];
      this.frames.clear();
      for (const callback of due) {
        callback(nextBeat);
        // Drawing takes the page a few milliseconds.
        this.now += work;
      }
    }
  }
}

describe('FrameLoop', () => {
  const page = new SimulatedPage();
  beforeEach(() => page.install());
  afterEach(() => page.restore());

  /** Frames per second drawn over 10 simulated seconds while the scene says `motion`. */
  const cadence = (motion: Motion, poke?: (loop: FrameLoop, second: number) => void) => {
    let drawn = 0;
    const loop = new FrameLoop(() => motion, () => (drawn += 1, true));
    loop.wake();
    page.runUntil(1000);
    const start = drawn;
    for (let second = 1; second <= 10; second += 1) {
      poke?.(loop, second);
      page.runUntil(1000 * (second + 1));
    }
    loop.dispose();
    return (drawn - start) / 10;
  };

  it('steps walkers at the walking cadence on a 60 Hz display (frames come on its beat, late and early beats even out)', () => {
    const fps = cadence('moving');
    expect(fps).toBeGreaterThanOrEqual(MOVING_FPS - 0.5);
    expect(fps).toBeLessThanOrEqual(MOVING_FPS + 0.5);
  });

  it('steps sprite loops at the looping cadence', () => {
    const fps = cadence('looping');
    expect(fps).toBeGreaterThanOrEqual(LOOPING_FPS - 0.5);
    expect(fps).toBeLessThanOrEqual(LOOPING_FPS + 0.5);
  });

  it('keeps the looping cadence through changes drawn at once: its steps land on whole intervals, and each sprite turn is drawn', () => {
    // The scene's sprites turn every looping interval of its own clock (two phase groups of a 10 fps cadence): a step
    // that fell a few milliseconds short of a turn would draw nothing and lose the frame.
    const turn = 1000 / LOOPING_FPS;
    let clock = 0;
    let shown = 0;
    /** The scene's clock at each step on the cadence (changes drawn at once apart). */
    const onCadence: number[] = [];
    let updating = false;
    let updates = 0;
    const loop = new FrameLoop(
      (deltaMs) => {
        clock += deltaMs;
        if (updating) updates += 1;
        else onCadence.push(clock);
        return 'looping';
      },
      () => {
        const frame = Math.floor(clock / turn);
        if (frame === shown) return false;
        shown = frame;
        return true;
      },
    );
    loop.wake();
    // A fleet update drawn at once now and then, between the beats (the busy demo sends several a second).
    for (let at = 0; at < 10_000; at += 7) {
      page.runUntil(at);
      if (at % 301 < 7) {
        updating = true;
        loop.drawNow();
        updating = false;
      }
    }
    const drawn = loop.state.frames;
    loop.dispose();
    expect(updates).toBeGreaterThan(30);
    // The first step starts the clock; every later step on the cadence lands on a whole number of intervals.
    const origin = onCadence[0];
    const offGrid = onCadence.slice(1).filter((at) => Math.abs((at - origin) / turn - Math.round((at - origin) / turn)) > 1e-6);
    expect(offGrid, onCadence.slice(0, 16).map((at) => at.toFixed(1)).join(' ')).toEqual([]);
    // The updates neither held the cadence back nor lost a turn: every turn of the 10 s is drawn.
    expect(drawn).toBeGreaterThanOrEqual(LOOPING_FPS * 10 - 2);
  });

  it('draws a requested change in the next frame at most at the walking cadence, and a camera the owner moves at the display rate', () => {
    let drawn = 0;
    const loop = new FrameLoop(() => 'looping', () => (drawn += 1, true));
    loop.wake();
    page.runUntil(1000);
    // A pointer move every 4 ms for 5 s, each asking for a draw.
    const start = drawn;
    for (let at = 1000; at < 6000; at += 4) {
      loop.requestDraw();
      page.runUntil(at + 4);
    }
    const fps = (drawn - start) / 5;
    expect(fps).toBeGreaterThanOrEqual(MOVING_FPS - 0.5);
    expect(fps).toBeLessThanOrEqual(MOVING_FPS + 0.5);
    // The camera under the owner's hand is drawn on every beat the pointer moved it in (the display's rate).
    const followStart = drawn;
    for (let at = 6000; at < 7000; at += 4) {
      loop.requestDraw(true);
      page.runUntil(at + 4);
    }
    expect(drawn - followStart).toBeGreaterThanOrEqual(58);
    expect(drawn - followStart).toBeLessThanOrEqual(61);
    // Once asked after a quiet spell, the draw comes in the very next beat.
    page.runUntil(8000);
    const before = drawn;
    loop.requestDraw();
    page.runUntil(page.now + 1000 / 60);
    expect(drawn).toBe(before + 1);
    loop.dispose();
  });

  it('stops when the scene is still and draws nothing more', () => {
    let drawn = 0;
    const loop = new FrameLoop(() => 'idle', () => (drawn += 1, true));
    loop.wake();
    page.runUntil(2000);
    expect(drawn).toBe(1);
    expect(loop.state.running).toBe(false);
    loop.dispose();
  });
});
