/**
 * The needs-you queue: a strip along the top edge, one entry per agent waiting for the owner, oldest first, with the
 * character's portrait, name, why and how long. A click (or Enter) picks the agent. Empty and hidden when nobody waits.
 * It is an accessible list of buttons itself: `data-needs-you-queue`, entries `data-queue-entry` with `data-why`.
 */
import { elapsedPhrase, needsYouQueue, whyPhrase, type NeedsYouEntry } from '../../shared/activity';
import type { Appearance, FleetSnapshot } from '../../shared/schemas';
import { element, setAttribute } from './dom';

/** Draws a look's portrait as an image URL (the world's own character art). */
export type PortraitOf = (look: Appearance) => string;

/** The strip; call `sync` with each snapshot and `tick` now and then to refresh the waiting times. */
export class QueueStrip {
  readonly root: HTMLElement;
  private readonly list: HTMLOListElement;
  private readonly entries = new Map<string, { item: HTMLLIElement; button: HTMLButtonElement; name: HTMLElement; why: HTMLElement; since: HTMLElement; portrait: HTMLImageElement }>();
  private queue: NeedsYouEntry[] = [];

  constructor(
    private readonly pick: (personaId: string) => void,
    private readonly portraitOf: PortraitOf,
    private readonly now: () => number = Date.now,
  ) {
    this.list = element('ol', { class: 'queue-list' });
    this.root = element('section', { class: 'queue', 'data-needs-you-queue': true, 'aria-label': 'Agents waiting for you', hidden: true }, this.list);
  }

  /** Brings the strip in line with a snapshot, touching only what changed. */
  sync(snapshot: FleetSnapshot | null): void {
    this.queue = snapshot ? needsYouQueue(snapshot) : [];
    const looks = new Map((snapshot?.personas ?? []).map((persona) => [persona.id, persona.appearance]));
    const seen = new Set<string>();
    this.queue.forEach((entry, index) => {
      seen.add(entry.personaId);
      let view = this.entries.get(entry.personaId);
      if (!view) {
        const portrait = element('img', { class: 'queue-portrait', alt: '', 'data-queue-portrait': true });
        const name = element('span', { class: 'queue-name' });
        const why = element('span', { class: 'queue-why' });
        const since = element('span', { class: 'queue-since' });
        const personaId = entry.personaId;
        const button = element('button', { type: 'button', 'data-queue-entry': personaId, onclick: () => this.pick(personaId) }, portrait, name, why, since);
        const item = element('li', {}, button);
        view = { item, button, name, why, since, portrait };
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
      const look = looks.get(entry.personaId);
      const src = look ? this.portraitOf(look) : '';
      if (view.portrait.getAttribute('src') !== src) view.portrait.setAttribute('src', src);
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
