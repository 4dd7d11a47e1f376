/**
 * The pace panel (issue 41): opened by clicking the HUD's usage line. Each plan window as a gauge (used share, reset
 * countdown, "recorded"), the active 5-hour block as an "estimate" gauge with its cost, burn rate and projection, and
 * cost by role today and over 7 days as small bar charts. It asks main once when opened and once a minute while open
 * (a countdown moves no faster); closed, it costs the page nothing. Gauges and bars are reconciled by key.
 */
import type { Pace } from '../../shared/pace';
import type { Bridge } from '../bridge';
import { budgetMarks } from '../world/nearCompact';
import { element, setAttribute, setText } from './dom';
import { blockLines, paceGauges, roleBars, type PaceGauge, type RoleBar } from './paceFacts';

/** How often (ms) an open panel asks again and moves its countdowns. */
const PACE_REFRESH_MS = 60_000;

/** What the page hook reports of the panel. */
export interface PaceHook {
  open(): Promise<void>;
  close(): void;
  shown(): { open: boolean; gauges: PaceGauge[]; block: string[]; today: RoleBar[]; week: RoleBar[]; error: string | null };
}

/** The panel, attached to the HUD line that opens it. */
class PacePanel {
  readonly root: HTMLElement;
  private readonly gauges = element('div', { class: 'pace-gauges', 'data-pace-gauges': true });
  private readonly block = element('div', { class: 'pace-block', 'data-pace-block': true });
  private readonly today = element('div', { class: 'pace-roles', 'data-pace-roles': 'today' });
  private readonly week = element('div', { class: 'pace-roles', 'data-pace-roles': 'week' });
  private readonly note = element('p', { class: 'pace-note', 'data-pace-note': true });
  private readonly rows = new Map<HTMLElement, Map<string, HTMLElement>>();
  private timer: ReturnType<typeof setInterval> | null = null;
  private answer: Pace | null = null;
  private error: string | null = null;
  private facts = { gauges: [] as PaceGauge[], block: [] as string[], today: [] as RoleBar[], week: [] as RoleBar[] };

  constructor(
    private readonly bridge: Bridge,
    private readonly opener: HTMLElement,
  ) {
    const close = element('button', { type: 'button', class: 'pace-close', 'data-pace-close': true, 'aria-label': 'Close the pace panel', onclick: () => this.close() }, '×');
    this.root = element(
      'section',
      { class: 'pace-panel pixel-panel', 'data-pace-panel': true, 'aria-label': 'Budget and pace', hidden: true, onkeydown: (event) => (event as KeyboardEvent).key === 'Escape' && this.close() },
      element('header', { class: 'pace-header' }, element('strong', {}, 'Pace'), close),
      this.gauges,
      element('h3', {}, 'Active block'),
      this.block,
      element('h3', {}, 'Cost by role today'),
      this.today,
      element('h3', {}, 'Cost by role, 7 days'),
      this.week,
      this.note,
    );
    setAttribute(opener, 'data-pace-opener', '');
    setAttribute(opener, 'role', 'button');
    setAttribute(opener, 'tabindex', '0');
    setAttribute(opener, 'aria-expanded', 'false');
    opener.addEventListener('click', () => void this.toggle());
    opener.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        void this.toggle();
      }
    });
    // The owner's warning marks: learned once, so a character's near-compact mark follows the settings.
    void bridge.invoke('usage.pace', {}).then(
      (pace) => Object.assign(budgetMarks, { contextWarnPercent: pace.budget.contextWarnPercent, on: pace.budget.on }),
      () => undefined,
    );
  }

  /** Opens or closes the panel. */
  async toggle(): Promise<void> {
    if (this.root.hidden) await this.open();
    else this.close();
  }

  /** Opens the panel and asks main for the figures. */
  async open(): Promise<void> {
    this.root.hidden = false;
    setAttribute(this.opener, 'aria-expanded', 'true');
    this.timer ??= setInterval(() => void this.refresh(), PACE_REFRESH_MS);
    await this.refresh();
  }

  /** Closes the panel; nothing runs while it is closed. */
  close(): void {
    this.root.hidden = true;
    setAttribute(this.opener, 'aria-expanded', 'false');
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private async refresh(): Promise<void> {
    try {
      this.answer = await this.bridge.invoke('usage.pace', {});
      this.error = null;
    } catch (error) {
      this.error = `The pace figures could not be read: ${(error as Error)?.message ?? String(error)}`;
    }
    this.render(Date.now());
  }

  private render(nowMs: number): void {
    const pace = this.answer;
    this.facts = pace
      ? { gauges: paceGauges(pace, nowMs), block: blockLines(pace.block), today: roleBars(pace.roles.today), week: roleBars(pace.roles.week) }
      : { gauges: [], block: [], today: [], week: [] };
    this.reconcile(this.gauges, this.facts.gauges, (gauge) => gauge.key, gaugeRow, fillGauge);
    if (pace && this.facts.gauges.length === 0) this.empty(this.gauges, 'No plan window recorded and no active block.');
    this.reconcile(this.block, this.facts.block.map((text, index) => ({ key: String(index), text })), (line) => line.key, () => element('p', {}), (node, line) => setText(node, line.text));
    for (const [node, bars] of [[this.today, this.facts.today], [this.week, this.facts.week]] as const) {
      this.reconcile(node, bars, (bar) => bar.key, barRow, fillBar);
      if (pace && bars.length === 0) this.empty(node, 'No usage recorded in the history.');
    }
    const notes = [this.error, pace?.blocksPartial ? 'Some sessions are still being counted; the block may grow.' : null, 'Windows are recorded by the harness; blocks and costs are estimates.'];
    setText(this.note, notes.filter(Boolean).join(' '));
  }

  private empty(node: HTMLElement, text: string): void {
    this.reconcile(node, [{ key: '—', text }], (item) => item.key, () => element('p', { class: 'pace-empty' }), (child, item) => setText(child, item.text));
  }

  /** Keeps one child per key, in order; a child whose key stays is updated in place, never rebuilt. */
  private reconcile<T>(parent: HTMLElement, items: readonly T[], keyOf: (item: T) => string, make: () => HTMLElement, fill: (node: HTMLElement, item: T) => void): void {
    let known = this.rows.get(parent);
    if (!known) this.rows.set(parent, (known = new Map()));
    const seen = new Set<string>();
    items.forEach((item, index) => {
      const key = keyOf(item);
      seen.add(key);
      let node = known.get(key);
      if (!node) known.set(key, (node = make()));
      fill(node, item);
      if (parent.children[index] !== node) parent.insertBefore(node, parent.children[index] ?? null);
    });
    for (const [key, node] of known) {
      if (seen.has(key)) continue;
      node.remove();
      known.delete(key);
    }
  }

  /** The page hook's view. */
  hook(): PaceHook {
    return {
      open: () => this.open(),
      close: () => this.close(),
      shown: () => ({ open: !this.root.hidden, ...this.facts, error: this.error }),
    };
  }
}

function gaugeRow(): HTMLElement {
  return element(
    'div',
    { class: 'pace-gauge', 'data-pace-gauge': true },
    element('span', { class: 'pace-gauge-label' }),
    element('span', { class: 'pace-gauge-bar' }, element('span', { class: 'pace-gauge-fill' })),
    element('span', { class: 'pace-gauge-text' }),
  );
}

function fillGauge(node: HTMLElement, gauge: PaceGauge): void {
  const [label, bar, text] = [...node.children] as HTMLElement[];
  setAttribute(node, 'data-pace-gauge', gauge.key);
  setAttribute(node, 'data-kind', gauge.kind);
  setAttribute(node, 'data-percent', gauge.percent === null ? '' : String(gauge.percent));
  setText(label, gauge.label);
  const fill = bar.firstElementChild as HTMLElement;
  const width = `${gauge.percent ?? 0}%`;
  if (fill.style.width !== width) fill.style.width = width;
  setAttribute(bar, 'data-unknown', String(gauge.percent === null));
  setText(text, `${gauge.percent === null ? '?' : `${gauge.percent} %`} · ${gauge.countdown} · ${gauge.kind === 'recorded' ? 'recorded' : 'estimate'}`);
}

function barRow(): HTMLElement {
  return element('div', { class: 'pace-bar' }, element('span', { class: 'pace-bar-key' }), element('span', { class: 'pace-bar-track' }, element('span', { class: 'pace-bar-fill' })), element('span', { class: 'pace-bar-text' }));
}

function fillBar(node: HTMLElement, bar: RoleBar): void {
  const [key, track, text] = [...node.children] as HTMLElement[];
  setAttribute(node, 'data-pace-role', bar.key);
  setAttribute(node, 'data-usd', bar.usd === null ? '' : String(bar.usd));
  setText(key, bar.key);
  const fill = track.firstElementChild as HTMLElement;
  if (fill.style.width !== `${bar.width}%`) fill.style.width = `${bar.width}%`;
  setText(text, bar.text);
}

/** Builds the panel beside the HUD line, adds it to the page, and exposes `window.__pixelfleetPace` for tests. */
export function attachPacePanel(bridge: Bridge, hud: HTMLElement): PacePanel {
  const panel = new PacePanel(bridge, hud);
  document.body.append(panel.root);
  (window as unknown as { __pixelfleetPace: PaceHook }).__pixelfleetPace = panel.hook();
  return panel;
}
