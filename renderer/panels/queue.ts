/**
 * The needs-you queue: a strip along the top edge, one entry per agent waiting for the owner, oldest first, with a
 * portrait chip, name, why and how long. A click (or Enter) picks the agent. Empty and hidden when nobody waits.
 * It is an accessible list of buttons itself: `data-needs-you-queue`, entries `data-queue-entry` with `data-why`.
 */
import { elapsedPhrase, needsYouQueue, whyPhrase, type NeedsYouEntry } from '../../shared/activity';
import type { FleetSnapshot } from '../../shared/schemas';
import { element, setAttribute } from './dom';

/** Chip colours by persona palette index (the character's shirt colours, roughly). */
const CHIP = ['#d05a4e', '#4e8fd0', '#5aa05a', '#d0a03e', '#9a6ad0', '#3eb0b0', '#d07aa8', '#8c8f6a'];

/** The strip; call `sync` with each snapshot and `tick` now and then to refresh the waiting times. */
export class QueueStrip {
  readonly root: HTMLElement;
  private readonly list: HTMLOListElement;
  private readonly entries = new Map<string, { item: HTMLLIElement; button: HTMLButtonElement; name: HTMLElement; why: HTMLElement; since: HTMLElement; chip: HTMLElement }>();
  private queue: NeedsYouEntry[] = [];

  constructor(private readonly pick: (personaId: string) => void, private readonly now: () => number = Date.now) {
    this.list = element('ol', { class: 'queue-list' });
    this.root = element('section', { class: 'queue', 'data-needs-you-queue': true, 'aria-label': 'Agents waiting for you', hidden: true }, this.list);
  }

  /** Brings the strip in line with a snapshot, touching only what changed. */
  sync(snapshot: FleetSnapshot | null): void {
    this.queue = snapshot ? needsYouQueue(snapshot) : [];
    const palettes = new Map((snapshot?.personas ?? []).map((persona) => [persona.id, persona.appearance.palette]));
    const seen = new Set<string>();
    this.queue.forEach((entry, index) => {
      seen.add(entry.personaId);
      let view = this.entries.get(entry.personaId);
      if (!view) {
        const chip = element('span', { class: 'queue-chip', 'aria-hidden': 'true' });
        const name = element('span', { class: 'queue-name' });
        const why = element('span', { class: 'queue-why' });
        const since = element('span', { class: 'queue-since' });
        const personaId = entry.personaId;
        const button = element('button', { type: 'button', 'data-queue-entry': personaId, onclick: () => this.pick(personaId) }, chip, name, why, since);
        const item = element('li', {}, button);
        view = { item, button, name, why, since, chip };
        this.entries.set(personaId, view);
      }
      if (this.list.children[index] !== view.item) this.list.insertBefore(view.item, this.list.children[index] ?? null);
      const phrase = whyPhrase(entry.why, entry.certain);
      setAttribute(view.button, 'data-why', entry.why);
      setAttribute(view.button, 'data-certain', String(entry.certain));
      setAttribute(view.button, 'data-seat', entry.seatId);
      if (view.name.textContent !== entry.persona) view.name.textContent = entry.persona;
      const whyText = entry.label ? `${phrase} · ${entry.label}` : phrase;
      if (view.why.textContent !== whyText) view.why.textContent = whyText;
      view.chip.style.background = CHIP[(palettes.get(entry.personaId) ?? 0) % CHIP.length];
      if (view.chip.textContent !== entry.persona.slice(0, 1)) view.chip.textContent = entry.persona.slice(0, 1);
    });
    for (const [id, view] of this.entries) {
      if (seen.has(id)) continue;
      view.item.remove();
      this.entries.delete(id);
    }
    this.root.hidden = this.queue.length === 0;
    this.tick();
  }

  /** Refreshes the "how long" of every entry. */
  tick(): void {
    const now = this.now();
    for (const entry of this.queue) {
      const view = this.entries.get(entry.personaId);
      if (!view) continue;
      const waited = elapsedPhrase(entry.since, now);
      if (view.since.textContent !== waited) view.since.textContent = waited;
      setAttribute(view.button, 'aria-label', `${entry.persona} ${whyPhrase(entry.why, entry.certain)}${entry.label ? `, ${entry.label}` : ''}${waited ? `, for ${waited}` : ''}`);
    }
  }
}
