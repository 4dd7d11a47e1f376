/**
 * Envelopes on the page: one small pixel-art element per walking message, above the world's canvas in a layer moved
 * and scaled with the camera. Each flies its arc as a compositor animation (a transform sampled along the arc), so a
 * flight costs the page no frame of its own: the world's canvas is not drawn again for an envelope, and the page's
 * main thread does nothing while it flies. Progress (for the page hook and delivery) follows the clock.
 */
import type { AgentMessage, Team } from '../../shared/schemas';
import type { Camera } from './camera';
import { ENVELOPE_WALK_MS, EnvelopeTracker, envelopePoint, type Envelope } from './envelopes';

/** Height above an agent's feet where envelopes leave and arrive, in world pixels. */
const HEAD_HEIGHT = 30;
/** The envelope's picture in world pixels, and where its centre is on it. */
const PICTURE = { width: 12, height: 9, centreX: 6, centreY: 5 } as const;
/** Points sampled along the arc: the compositor moves in straight lines between them. */
const ARC_STEPS = 24;
const PAPER = '#f4ecd8';
const INK = '#3b2f2f';

/** The envelope's pixels: paper in an ink outline, with the flap's V (drawn once, shared by every envelope). */
function pictureUrl(): string {
  const canvas = document.createElement('canvas');
  canvas.width = PICTURE.width;
  canvas.height = PICTURE.height;
  const context = canvas.getContext('2d');
  if (!context) return '';
  context.fillStyle = INK;
  context.fillRect(0, 0, PICTURE.width, PICTURE.height);
  context.fillStyle = PAPER;
  context.fillRect(1, 1, PICTURE.width - 2, PICTURE.height - 2);
  context.fillStyle = INK;
  for (let step = 0; step < 5; step += 1) {
    context.fillRect(1 + step, 1 + step, 1, 1);
    context.fillRect(PICTURE.width - 2 - step, 1 + step, 1, 1);
  }
  return canvas.toDataURL('image/png');
}

/** The envelopes over the world; append `root` to the page above the world's canvas. */
export class EnvelopeLayer {
  readonly root: HTMLElement = document.createElement('div');
  readonly tracker = new EnvelopeTracker();
  private readonly flights = new Map<string, { element: HTMLElement; animation: Animation }>();
  private readonly picture = pictureUrl();
  /** When the tracker was last moved on (performance.now milliseconds). */
  private advanced = performance.now();

  constructor(private readonly positions: ReadonlyMap<string, { x: number; y: number }>) {
    this.root.className = 'envelopes';
    this.root.setAttribute('aria-hidden', 'true');
  }

  /** Takes a snapshot's teams and cross-session messages; starts a flight for each envelope that walks. */
  sync(teams: readonly Team[] | undefined, reducedMotion: boolean, sessions: readonly AgentMessage[] = []): void {
    this.advance();
    const started = this.tracker.sync(teams, (id) => this.positions.has(id), reducedMotion, sessions);
    for (const envelope of started) if (envelope.progress < 1) this.fly(envelope);
  }

  /** Moves the layer with the camera: the same offset and zoom the world's canvas uses. */
  place(camera: Camera): void {
    this.root.style.transform = `translate(${camera.offsetX}px, ${camera.offsetY}px) scale(${camera.zoom})`;
  }

  /** Brings every envelope's progress up to now; an envelope that arrived is delivered and its element goes. */
  advance(): void {
    const now = performance.now();
    const arrived = this.tracker.advance(now - this.advanced);
    this.advanced = now;
    for (const envelope of arrived) this.land(envelope.id);
  }

  /** Where an envelope is now, in world pixels, or null when either agent left the world. */
  pointOf(envelope: Envelope): { x: number; y: number } | null {
    const ends = this.ends(envelope);
    return ends && envelopePoint(ends.from, ends.to, envelope.progress);
  }

  private ends(envelope: Envelope): { from: { x: number; y: number }; to: { x: number; y: number } } | null {
    const from = envelope.fromPersonaId ? this.positions.get(envelope.fromPersonaId) : undefined;
    const to = envelope.toPersonaId ? this.positions.get(envelope.toPersonaId) : undefined;
    if (!from || !to) return null;
    return { from: { x: from.x, y: from.y - HEAD_HEIGHT }, to: { x: to.x, y: to.y - HEAD_HEIGHT } };
  }

  /** Starts an envelope's flight from its sender's head to its recipient's, along the arc, at the walking speed. */
  private fly(envelope: Envelope): void {
    const ends = this.ends(envelope);
    if (!ends) return;
    const element = document.createElement('div');
    element.className = 'envelope';
    element.style.backgroundImage = `url(${this.picture})`;
    const keyframes: Keyframe[] = [];
    for (let step = 0; step <= ARC_STEPS; step += 1) {
      const point = envelopePoint(ends.from, ends.to, envelope.progress + ((1 - envelope.progress) * step) / ARC_STEPS);
      keyframes.push({ transform: `translate(${Math.round(point.x) - PICTURE.centreX}px, ${Math.round(point.y) - PICTURE.centreY}px)` });
    }
    this.root.append(element);
    const animation = element.animate(keyframes, { duration: (1 - envelope.progress) * ENVELOPE_WALK_MS, easing: 'linear', fill: 'forwards' });
    animation.onfinish = () => {
      this.advance();
      // Delivered by the clock at the latest a moment later: a flight never outlasts its envelope.
      if (this.flights.has(envelope.id)) setTimeout(() => this.advance(), 20);
    };
    this.flights.set(envelope.id, { element, animation });
  }

  private land(id: string): void {
    const flight = this.flights.get(id);
    if (!flight) return;
    flight.animation.cancel();
    flight.element.remove();
    this.flights.delete(id);
  }
}
