/**
 * The world's frame loop: an animation-frame loop that runs only while something moves, steps the scene at 24 fps
 * while anything walks or fades and at 20 fps while only sprite loops run, and stops when the scene is still or
 * the page is hidden. A step draws only when the scene says something on screen changed, so an identical frame is never
 * drawn twice. A change from outside (a snapshot, the camera) is stepped and drawn at once (`drawNow`) or in the next
 * animation frame (`requestDraw`), whatever the cadence. A change drawn at once keeps the cadence's beat: in the second
 * half of an interval it is that interval's step, come early; in the first half, a frame between two steps.
 *
 * Cadence steps are due on a schedule (each one interval after the last one due), not one interval after the last
 * step was drawn: animation frames come on the display's beat (every 16.7 ms at 60 Hz), so a step lands up to a beat
 * late, and counting from when it landed (and after its drawing) made every 24 fps step wait three beats — 20 fps.
 * Counting from when it was due lets late and early beats even out to the cadence asked for.
 *
 * It is the page's only animation-frame loop: Pixi's own tickers stay stopped (see main.ts).
 */
import type { Motion } from './World';

/**
 * Frames per second while something walks, fades or is dragged (a camera the owner moves is drawn as fast as the
 * pointer moves it). In software WebGL each drawn frame costs the page several milliseconds however little changed
 * (the browser reads the whole canvas back), so walking runs at 24 rather than 30: smooth enough for pixel art, a
 * fifth cheaper, and above issue 17's 20 fps floor.
 */
export const MOVING_FPS = 24;
/**
 * Frames per second while only sprite loops run: each character keeps the pixel-art cadence (10 fps), in two phase
 * groups half a sprite frame apart (World.ts), so each frame brings half of them up to date.
 */
export const LOOPING_FPS = 20;
/**
 * Milliseconds a step may come early and still count as due. Between steps the loop sleeps on a timer that wakes it
 * this long before the step is due, then asks for one animation frame: a 20 fps loop asks for 20 frames a second,
 * not 60 (each animation frame costs the page a main-frame update, even when nothing is drawn).
 */
const EARLY_MS = 8;
/** The longest step: a wake after a long stop must not jump walkers across the floor. */
const LONGEST_STEP_MS = 100;

/** Loop states the page hook reports. */
export interface LoopState {
  running: boolean;
  /** Frames drawn so far (a step that changed nothing on screen draws none). */
  frames: number;
}

/** The frame loop. */
export class FrameLoop {
  private frames = 0;
  private running = false;
  /** The pending animation frame request (0: none). */
  private request = 0;
  /** The pending sleep until the next step is nearly due (0: none). */
  private timer: ReturnType<typeof setTimeout> | 0 = 0;
  /**
   * The time the scene has been stepped to (performance.now milliseconds): a step on the cadence steps it to when that
   * step was due, not to when its animation frame came, so each cadence step advances the scene by exactly one
   * interval. A frame's few milliseconds early or late would otherwise make one step fall short of a sprite frame's
   * boundary (nothing to draw: a lost frame) and the next cross two.
   */
  private last = 0;
  /** When the next cadence step is due (performance.now milliseconds). */
  private due = 0;
  /** When the last step was due (its animation frame may have come a little earlier or later). */
  private lastDue = 0;
  private interval = 1000 / LOOPING_FPS;
  /** A change asked to be drawn in the next animation frame, cadence or not. */
  private urgent = false;
  /** The camera moved under the owner's hand: drawn in the next animation frame, not held to the walking cadence. */
  private following = false;
  private readonly onFrame = (now: number) => {
    this.request = 0;
    // A requested change waits no longer than the walking cadence; the loop's own steps wait their interval.
    // The camera follows the pointer: its change is drawn in this very frame, at the display's rate.
    const due = this.following ? now : this.urgent ? Math.min(this.due, this.lastDue + 1000 / MOVING_FPS) : this.due;
    if (this.running && now < due - EARLY_MS) {
      this.sleep(due - EARLY_MS - now);
      return;
    }
    this.urgent = false;
    this.following = false;
    this.advance(now, this.running ? due : undefined);
  };
  private readonly onVisibility = () => (document.hidden ? this.stop() : this.wake());

  /**
   * @param step advances the scene by some milliseconds and says what still moves
   * @param draw draws the scene if something on screen changed; says whether it drew
   */
  constructor(
    private readonly step: (deltaMs: number) => Motion,
    private readonly draw: () => boolean,
  ) {
    document.addEventListener('visibilitychange', this.onVisibility);
  }

  /** Asks for at least one more step (something may move); ignored while the page is hidden. */
  wake(): void {
    if (document.hidden || this.running) return;
    this.running = true;
    this.last = performance.now();
    this.lastDue = this.last;
    this.due = this.last + this.interval;
    this.sleep(this.interval - EARLY_MS);
  }

  /**
   * Steps and draws now, in this animation frame, rather than at the loop's next cadence step. The cadence keeps its
   * beat: a change drawn in the second half of an interval is that interval's step, come early (the scene is stepped to
   * when the step is due); one drawn in the first half is a frame between two steps, and the next step comes when it
   * was due. Restarting the cadence at each change (a busy fleet sends several a second) delayed the next step by up
   * to an interval each time, and the world fell below its cadence.
   */
  drawNow(): void {
    if (document.hidden) return;
    const now = performance.now();
    if (this.running && now >= this.due - this.interval / 2) this.advance(now, this.due);
    else this.advance(now, undefined, this.running);
  }

  /**
   * Steps and draws in the next animation frame (once, however often it is asked), at most at the walking cadence; a
   * camera the owner is moving (`follow`) is drawn in the next animation frame whatever the cadence, so a pan or zoom
   * keeps up with the pointer (each such frame is drawn whole anyway).
   */
  requestDraw(follow = false): void {
    if (document.hidden) return;
    this.urgent = true;
    if (follow) this.following = true;
    this.schedule();
  }

  /** Whether the loop runs and how many frames it has drawn. */
  get state(): LoopState {
    return { running: this.running, frames: this.frames };
  }

  /** Stops listening and stops the loop. */
  dispose(): void {
    this.stop();
    document.removeEventListener('visibilitychange', this.onVisibility);
  }

  /**
   * Steps and draws; `due` is when this step was due (none for a change drawn at once, which with `between` leaves the
   * cadence's next step where it was).
   */
  private advance(now: number, due?: number, between = false): void {
    // A step on the cadence counts from when it was due; one that came a whole walking interval late (a long task) or a
    // change drawn at once counts from now, so the loop never hurries to catch up.
    const onCadence = due !== undefined && now - due < 1000 / MOVING_FPS;
    const to = onCadence ? Math.max(due, this.last) : Math.max(now, this.last);
    // A stopped loop had nothing moving: its clock does not run while it sleeps.
    const motion = this.step(this.running ? Math.min(to - this.last, LONGEST_STEP_MS) : 0);
    this.last = to;
    if (this.draw()) this.frames += 1;
    if (motion === 'idle') {
      this.stop();
      return;
    }
    this.interval = 1000 / (motion === 'moving' ? MOVING_FPS : LOOPING_FPS);
    // The next step is due one interval after this one was due (or after the last step, for a frame between two).
    if (!between) this.lastDue = onCadence ? due : now;
    this.due = this.lastDue + this.interval;
    if (!this.running) this.wake();
    else this.sleep(this.due - EARLY_MS - performance.now());
  }

  /** Asks for an animation frame now (a pending sleep is cut short). */
  private schedule(): void {
    if (this.timer !== 0) clearTimeout(this.timer);
    this.timer = 0;
    if (this.request === 0) this.request = requestAnimationFrame(this.onFrame);
  }

  /** Asks for an animation frame after some milliseconds, unless one is already asked for. */
  private sleep(milliseconds: number): void {
    if (this.request !== 0 || this.timer !== 0) return;
    this.timer = setTimeout(this.onWake, Math.max(0, milliseconds));
  }

  private readonly onWake = () => {
    this.timer = 0;
    this.schedule();
  };

  private stop(): void {
    this.running = false;
    this.urgent = false;
    this.following = false;
    if (this.request !== 0) cancelAnimationFrame(this.request);
    this.request = 0;
    if (this.timer !== 0) clearTimeout(this.timer);
    this.timer = 0;
  }
}
