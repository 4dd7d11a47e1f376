/**
 * The needs-you queue: a strip along the top edge, one entry per agent waiting for the owner, oldest first, with the
 * character's portrait, name, why and how long. A click (or Enter) picks the agent. Empty and hidden when nobody waits.
 * It is an accessible list of buttons itself: `data-needs-you-queue` (with `data-queue-total`, how many wait: those
 * shown and those counted on "+N more"), entries `data-queue-entry` with `data-why`.
 */
import { elapsedPhrase, needsYouQueue, whyPhrase, type NeedsYouEntry } from '../../shared/activity';
import type { Appearance, FleetSnapshot } from '../../shared/schemas';
import { element, setAttribute, setText } from './dom';
import type { ReplyBox } from './replyBox';

/**
 * Entries given elements while the strip is not expanded: the oldest this many, the rest only counted on "+N more"
 * (a busy fleet keeps dozens waiting, of which a handful fit; building, syncing and restyling every one was about a
 * fifth of the page's time at 200 agents). When every entry built fits, the strip builds BUILT_STEP more.
 */
const BUILT_FIRST = 12;
const BUILT_STEP = 8;

/** The entries built, in order, with their widths as measured: what a fit's measured places hold for. */
function placesKey(views: readonly EntryView[]): string {
  return views.map((view) => `${view.entry?.personaId}\t${view.width ?? '?'}`).join('|');
}

/** Draws a look's portrait as an image URL (the world's own character art). */
export type PortraitOf = (look: Appearance) => string;

/** One entry's elements and what they show now (kept here, so a sync reads nothing back from the page). */
interface EntryView {
  item: HTMLLIElement;
  button: HTMLButtonElement;
  name: HTMLElement;
  why: HTMLElement;
  since: HTMLElement;
  portrait: HTMLImageElement;
  /** The action that fits the wait (issue 39), when the strip offers actions. */
  reply: ReplyBox | null;
  /** The why, certainty, seat, name and label last shown. */
  shown: string;
  look: Appearance | undefined;
  waited: string;
  label: string;
  /** The item's width as last measured (null: not measured since its content changed, or it was never shown). */
  width: number | null;
  /** The queue entry it shows (its wait is refreshed from it). */
  entry: NeedsYouEntry | null;
}

/** The strip; call `sync` with each snapshot and `tick` now and then to refresh the waiting times. */
export class QueueStrip {
  readonly root: HTMLElement;
  private readonly list: HTMLOListElement;
  private readonly entries = new Map<string, EntryView>();
  private queue: NeedsYouEntry[] = [];
  /** The queue as last worked out, and the seats and personas it was worked out from. */
  private waitingOf: { seats?: FleetSnapshot['seats']; personas?: FleetSnapshot['personas']; waiting: NeedsYouEntry[] } = { waiting: [] };
  /** The host filter (issue 28): `*` all, `''` this machine, else a remote host; shown once a remote agent waits. */
  private readonly hostFilter: HTMLSelectElement;
  private hostKeys = '';
  private snapshot: FleetSnapshot | null = null;
  /** "+N more": the entries the strip has no room for, counted; a click shows them all (wrapped) until clicked again. */
  private readonly more: HTMLButtonElement;
  private expanded = false;
  /** How many of the oldest entries have elements while collapsed (all of them while expanded). */
  private built = BUILT_FIRST;
  private fitted = '';
  /** The gap between two entries (CSS pixels), read once per window size. */
  private listGap: number | null = null;
  /**
   * What the last fit that measured read: the room, "+N more" at its widest (for counts of `widest` characters), the
   * gap before it and where the first entry starts, with the entries built then and their widths (`built`). A fit over
   * the same entries, none of them changed, reuses them.
   */
  private measured: { widest: number; built: string; room: number; moreWidth: number; gap: number; start: number } | null = null;
  /**
   * An entry shown whose width changed without a new content (its wait "9 s" → "10 s", its reply box saying "sent")
   * is measured again: the observer reports it after the page's layout, when reading its width costs nothing.
   */
  private readonly viewOf = new WeakMap<Element, EntryView>();
  private readonly resized = new ResizeObserver((records) => {
    let changed = false;
    for (const record of records) {
      const view = this.viewOf.get(record.target);
      const width = (record.target as HTMLElement).offsetWidth;
      if (!view || width === 0 || view.width === null || Math.abs(width - view.width) < 1) continue;
      view.width = null;
      changed = true;
    }
    if (changed) this.fit();
  });

  constructor(
    private readonly pick: (personaId: string) => void,
    private readonly portraitOf: PortraitOf,
    private readonly now: () => number = Date.now,
    /** Makes an entry's reply box or approval buttons (issue 39); absent: the strip only picks. */
    private readonly replyBoxOf?: (personaId: string) => ReplyBox,
  ) {
    this.list = element('ol', { class: 'queue-list' });
    this.hostFilter = element('select', { class: 'queue-host', 'data-needs-you-host-filter': true, 'aria-label': 'Show agents of', hidden: true }, element('option', { value: '*' }, 'all hosts'));
    this.hostFilter.addEventListener('change', () => this.sync(this.snapshot));
    this.more = element('button', { type: 'button', class: 'queue-more', 'data-queue-more': true, hidden: true, onclick: () => this.toggleMore() });
    this.root = element('section', { class: 'queue', 'data-needs-you-queue': true, 'aria-label': 'Agents waiting for you', hidden: true }, this.hostFilter, this.list, this.more);
    addEventListener('resize', () => {
      // A narrower window can shorten the entries (media rules): measure every one again.
      for (const view of this.entries.values()) view.width = null;
      this.listGap = null;
      this.fit(true);
    });
  }

  private toggleMore(): void {
    this.expanded = !this.expanded;
    // Expanded shows every entry, so every one is built; collapsed again, those past the first few go.
    this.sync(this.snapshot);
    this.fit(true);
  }

  /**
   * Shows as many entries as the strip has room for, oldest first, and counts the rest on "+N more" (never a silent
   * cut); expanded, the strip wraps and shows them all. Runs only when the entries or the window changed, and then
   * measures only the entries whose content changed since they were last measured, in one read: the others' widths are
   * kept, their places summed, and an entry stays hidden or shown unless the room changed for it (a busy fleet changes
   * the queue several times a second; showing every entry to measure it and hiding the overflow again rebuilt and laid
   * out the strip's boxes on every change).
   */
  private fit(force = false): void {
    const views = this.builtViews();
    const key = this.fitKey(views);
    if (!force && key === this.fitted) return;
    this.root.classList.toggle('queue-expanded', this.expanded);
    if (this.root.hidden || views.length === 0 || this.expanded) {
      for (const view of views) this.show(view);
      this.more.hidden = views.length === 0 || this.root.hidden || !this.expanded;
      if (this.expanded) setText(this.more, 'fewer');
      this.fitted = key;
      return;
    }
    // "+N more" at its widest: its width bounds every count it shows.
    const widest = `+${this.queue.length} more`;
    let room: number;
    let moreWidth: number;
    let gap: number;
    let start: number;
    const last = this.measured;
    if (!force && last !== null && last.widest === widest.length && last.built === placesKey(views)) {
      // The same entries built, none changed, the count as wide: only entries not built (or their number) changed,
      // and the room and places measured last hold.
      ({ room, moreWidth, gap, start } = last);
    } else {
      // Writes first: the entries to measure shown, and "+N more" at its widest.
      const measure = views.filter((view, index) => view.width === null || index === 0);
      for (const view of measure) this.show(view);
      this.more.hidden = false;
      setText(this.more, widest);
      // Then the reads, in one layout.
      room = this.root.clientWidth;
      moreWidth = this.more.offsetWidth;
      gap = Number.parseFloat(getComputedStyle(this.root).columnGap) || 0;
      this.listGap ??= Number.parseFloat(getComputedStyle(this.list).columnGap) || 0;
      start = views[0].item.offsetLeft;
      for (const view of measure) view.width = view.item.offsetWidth;
      this.measured = { widest: widest.length, built: placesKey(views), room, moreWidth, gap, start };
    }
    let end = start;
    const ends = views.map((view, index) => (end += (index > 0 ? this.listGap! : 0) + view.width!));
    let shown = views.length;
    // Entries not built are waiting too: "+N more" needs its room whenever any are.
    if (views.length < this.queue.length || ends[ends.length - 1] > room + 1) {
      shown = 1;
      while (shown < views.length && ends[shown] + gap + moreWidth <= room + 1) shown += 1;
    }
    views.forEach((view, index) => {
      if (index < shown) this.show(view);
      else if (!view.item.hidden) view.item.hidden = true;
    });
    // An entry kept built past a gap in the built ones is counted, not shown.
    if (this.entries.size > views.length) {
      const counted = new Set(views);
      for (const view of this.entries.values()) if (!counted.has(view) && !view.item.hidden) view.item.hidden = true;
    }
    const hidden = this.queue.length - shown;
    // Every entry built fits, and more wait: build the next few (before this frame is drawn), and fit again then.
    if (shown === views.length && hidden > 0 && this.built <= views.length) {
      this.built = views.length + BUILT_STEP;
      queueMicrotask(() => this.sync(this.snapshot));
    }
    this.more.hidden = hidden === 0;
    if (hidden > 0) {
      setText(this.more, `+${hidden} more`);
      this.more.setAttribute('aria-label', `${hidden} more ${hidden === 1 ? 'agent waits' : 'agents wait'} for you; show all`);
      setAttribute(this.more, 'data-hidden-count', String(hidden));
    }
    // Keyed by the widths just measured, so the next sync with nothing new does not fit again.
    this.fitted = this.fitKey(views);
  }

  /**
   * What a fit depends on: expanded or not, how many wait, the entries built in order, what each shows and its width
   * as measured.
   */
  private fitKey(views: readonly EntryView[]): string {
    return `${this.expanded}|${this.queue.length}|${views.map((view) => `${view.entry?.personaId}\t${view.shown}\t${view.width ?? '?'}`).join('|')}`;
  }

  /** The views of the oldest entries, in order, up to the first entry without one. */
  private builtViews(): EntryView[] {
    const views: EntryView[] = [];
    for (const entry of this.queue) {
      const view = this.entries.get(entry.personaId);
      if (!view) break;
      views.push(view);
    }
    return views;
  }

  /** Brings the strip in line with a snapshot, touching only what changed (a busy fleet syncs several times a second). */
  sync(snapshot: FleetSnapshot | null): void {
    this.snapshot = snapshot;
    // A snapshot whose seats and names did not change (its usage did, or another part) waits as the last one did.
    if (snapshot?.seats !== this.waitingOf.seats || snapshot?.personas !== this.waitingOf.personas) {
      this.waitingOf = { seats: snapshot?.seats, personas: snapshot?.personas, waiting: snapshot ? needsYouQueue(snapshot) : [] };
    }
    const { waiting } = this.waitingOf;
    this.syncHosts(waiting);
    const host = this.hostFilter.value;
    this.queue = host === '*' ? waiting : waiting.filter((entry) => (entry.host ?? '') === host);
    const looks = new Map<string, Appearance>();
    const seen = new Set<string>();
    const order: HTMLLIElement[] = [];
    // Collapsed, the oldest `built` entries get elements (an entry built a little further on keeps them, so one that
    // moves across the line is not rebuilt each time); expanded, every one.
    const build = this.expanded ? this.queue.length : Math.min(this.queue.length, this.built);
    const keep = this.expanded ? this.queue.length : Math.min(this.queue.length, this.built + BUILT_STEP);
    if (keep > 0) for (const persona of snapshot?.personas ?? []) looks.set(persona.id, persona.appearance);
    for (let index = 0; index < keep; index++) {
      const entry = this.queue[index];
      let view = this.entries.get(entry.personaId);
      if (!view && index >= build) continue;
      seen.add(entry.personaId);
      if (!view) {
        const portrait = element('img', { class: 'queue-portrait', alt: '', 'data-queue-portrait': true });
        const name = element('span', { class: 'queue-name' });
        const hostTag = element('span', { class: 'queue-host-tag', 'data-queue-host': entry.host ?? '' }, entry.host ?? '');
        hostTag.hidden = !entry.host;
        const why = element('span', { class: 'queue-why' });
        const since = element('span', { class: 'queue-since' });
        const personaId = entry.personaId;
        const button = element('button', { type: 'button', 'data-queue-entry': personaId, onclick: () => this.pick(personaId) }, portrait, name, hostTag, why, since);
        const reply = this.replyBoxOf?.(personaId) ?? null;
        const item = element('li', {}, button, reply?.root);
        view = { item, button, name, why, since, portrait, reply, shown: '', look: undefined, waited: '', label: '', width: null, entry: null };
        this.entries.set(personaId, view);
        this.viewOf.set(item, view);
        this.resized.observe(item);
      }
      order.push(view.item);
      view.entry = entry;
      view.reply?.update(entry.why);
      const shown = `${entry.why}\n${entry.certain}\n${entry.seatId}\n${entry.persona}\n${entry.label ?? ''}`;
      if (view.shown !== shown) {
        view.shown = shown;
        view.width = null;
        const phrase = whyPhrase(entry.why, entry.certain);
        setAttribute(view.button, 'data-why', entry.why);
        setAttribute(view.button, 'data-certain', String(entry.certain));
        setAttribute(view.button, 'data-seat', entry.seatId);
        setAttribute(view.button, 'data-host', entry.host ?? '');
        setText(view.name, entry.persona);
        setText(view.why, entry.label ? `${phrase} · ${entry.label}` : phrase);
      }
      const look = looks.get(entry.personaId);
      if (view.look !== look || look === undefined) {
        view.look = look;
        const src = look ? this.portraitOf(look) : '';
        if (view.portrait.getAttribute('src') !== src) view.portrait.setAttribute('src', src);
      }
    }
    for (const [id, view] of this.entries) {
      if (seen.has(id)) continue;
      this.resized.unobserve(view.item);
      view.item.remove();
      view.reply?.dispose();
      this.entries.delete(id);
    }
    // One walk puts the items in order: an entry that joins or leaves moves one node, not every one after it.
    let cursor = this.list.firstElementChild;
    for (const item of order) {
      if (item === cursor) cursor = cursor.nextElementSibling;
      else this.list.insertBefore(item, cursor);
    }
    this.root.hidden = this.queue.length === 0 && (host === '*' || waiting.length === 0);
    setAttribute(this.root, 'data-queue-total', String(this.queue.length));
    this.tick();
    this.fit();
  }

  /** Offers a host filter once an agent of a remote host waits: all hosts, this machine, and each host. */
  private syncHosts(waiting: readonly NeedsYouEntry[]): void {
    const hosts = [...new Set(waiting.flatMap((entry) => (entry.host ? [entry.host] : [])))].sort();
    const keys = hosts.join('\n');
    if (keys === this.hostKeys) return;
    this.hostKeys = keys;
    const value = this.hostFilter.value;
    this.hostFilter.replaceChildren(element('option', { value: '*' }, 'all hosts'), element('option', { value: '' }, 'this machine'), ...hosts.map((host) => element('option', { value: host }, host)));
    this.hostFilter.value = value === '*' || value === '' || hosts.includes(value) ? value : '*';
    this.hostFilter.hidden = hosts.length === 0 && this.hostFilter.value === '*';
  }

  /**
   * Refreshes the "how long" of every entry shown. An entry hidden behind "+N more" is refreshed when it shows again:
   * a busy fleet keeps dozens waiting, and rewriting each one's wait every second was most of the strip's cost.
   */
  tick(): void {
    const now = this.now();
    for (const entry of this.queue) {
      const view = this.entries.get(entry.personaId);
      if (view && !view.item.hidden) this.refresh(view, now);
    }
  }

  /** Shows an entry (if hidden) with its wait brought up to date. */
  private show(view: EntryView): void {
    if (!view.item.hidden) return;
    view.item.hidden = false;
    this.refresh(view, this.now());
  }

  /** Brings an entry's wait and its label up to date. */
  private refresh(view: EntryView, now: number): void {
    const { entry } = view;
    if (!entry) return;
    const waited = elapsedPhrase(entry.since, now);
    if (view.waited !== waited) {
      view.waited = waited;
      setText(view.since, waited);
    }
    const label = `${entry.persona} ${whyPhrase(entry.why, entry.certain)}${entry.label ? `, ${entry.label}` : ''}${waited ? `, for ${waited}` : ''}`;
    if (view.label !== label) {
      view.label = label;
      view.button.setAttribute('aria-label', label);
    }
  }
}
