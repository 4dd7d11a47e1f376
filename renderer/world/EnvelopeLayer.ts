/** The Pixi side of envelopes: one small drawn envelope per walking message, placed each frame from the agents' positions. */
import { Container, Graphics } from 'pixi.js';
import type { AgentMessage, Team } from '../../shared/schemas';
import { EnvelopeTracker, envelopePoint, type Envelope } from './envelopes';

/** Height above an agent's feet where envelopes leave and arrive, in world pixels. */
const HEAD_HEIGHT = 30;

function drawEnvelope(): Graphics {
  const graphic = new Graphics();
  graphic.rect(-5, -4, 10, 7).fill(0xf4ecd8).stroke({ width: 1, color: 0x3b2f2f });
  graphic.moveTo(-5, -4).lineTo(0, 0).lineTo(5, -4).stroke({ width: 1, color: 0x3b2f2f });
  return graphic;
}

/** Envelopes over the agents; add `root` above the agent layer of the world. */
export class EnvelopeLayer {
  readonly root = new Container();
  readonly tracker = new EnvelopeTracker();
  private readonly views = new Map<string, Graphics>();

  constructor(private readonly positions: ReadonlyMap<string, { x: number; y: number }>) {
    this.root.label = 'envelopes';
  }

  /** Takes a snapshot's teams and cross-session messages; says whether an envelope started walking. */
  sync(teams: readonly Team[] | undefined, reducedMotion: boolean, sessions: readonly AgentMessage[] = []): boolean {
    const started = this.tracker.sync(teams, (id) => this.positions.has(id), reducedMotion, sessions);
    for (const envelope of started) {
      if (envelope.progress >= 1) continue;
      const view = drawEnvelope();
      this.views.set(envelope.id, view);
      this.root.addChild(view);
    }
    this.place();
    return started.some((envelope) => envelope.progress < 1);
  }

  /** True while an envelope walks (each frame then moves it). */
  get flying(): boolean {
    return this.tracker.walking.length > 0;
  }

  /** Advances the walking envelopes; says whether any still walks. */
  animate(deltaMs: number): boolean {
    for (const envelope of this.tracker.advance(deltaMs)) {
      this.views.get(envelope.id)?.destroy();
      this.views.delete(envelope.id);
    }
    this.place();
    return this.tracker.walking.length > 0;
  }

  /** Where an envelope is now, in world pixels, or null when either agent left the world. */
  pointOf(envelope: Envelope): { x: number; y: number } | null {
    const from = envelope.fromPersonaId ? this.positions.get(envelope.fromPersonaId) : undefined;
    const to = envelope.toPersonaId ? this.positions.get(envelope.toPersonaId) : undefined;
    if (!from || !to) return null;
    return envelopePoint({ x: from.x, y: from.y - HEAD_HEIGHT }, { x: to.x, y: to.y - HEAD_HEIGHT }, envelope.progress);
  }

  private place(): void {
    for (const envelope of this.tracker.walking) {
      const view = this.views.get(envelope.id);
      const point = this.pointOf(envelope);
      if (!view) continue;
      view.visible = point !== null;
      if (point) view.position.set(Math.round(point.x), Math.round(point.y));
    }
  }
}
