/**
 * The offscreen accessible mirror of the world: one group per station (with a button for its menu), one button per agent, kept in sync with the
 * scene. Keyboard: Tab or arrows move between agents, Enter opens the tray, R opens the role picker.
 * It is also the world's readable surface: data-station, data-agent, data-role, data-subagents, and the context bar's
 * data-context-level (calm, warning, alarm, unknown) and data-context-fill (whole percent as a fraction, empty when unknown).
 */
import { activityPhrase } from '../../shared/activity';
import type { AppStore } from '../store/createAppStore';
import { badgeText, type AgentModel, type StationModel, type WorldModel } from '../world/model';
import { element, setAttribute } from './dom';
import { HOVER_CARD_ID } from './hoverCard';
import { harnessText } from '../../shared/usagePhrases';

function stationLabel(station: StationModel, agents: number): string {
  const name = station.lobby ? 'Unassigned lobby' : `${station.label} station`;
  const backlog = station.lobby ? '' : station.backlogError ? `, backlog unavailable: ${station.backlogError}` : station.backlogCount === null ? ', backlog unknown at this moment' : `, backlog ${station.backlogCount} items`;
  return `${name}: ${agents} ${agents === 1 ? 'agent' : 'agents'}${backlog}`;
}

function agentLabel(agent: AgentModel): string {
  const subagents = agent.subagents === null ? 'subagents unknown' : `${agent.subagents} subagents running`;
  const harness = agent.harness ? `${harnessText(agent.harness)}, ` : '';
  const team = agent.team === null ? '' : `, ${agent.teamLead ? 'leads' : 'in'} team ${agent.team}`;
  const context = agent.context.percent === null ? 'context unknown' : `context ${agent.context.percent} % full${agent.context.level === 'calm' ? '' : ` (${agent.context.level})`}`;
  const host = agent.host ? `on ${agent.host}${agent.unreachable ? ' (unreachable, last known)' : ''}, ` : '';
  const drift = agent.drift ? `, unknown record kinds ${agent.drift.join(', ')}: counts may be incomplete` : '';
  return `${agent.name}, ${host}${harness}${activityPhrase(agent.activity)}, ${subagents}, ${context}${team}${drift}${agent.pending ? ', role change pending' : ''}`;
}

/** The mirror; call `sync` with each new world model. */
export class Mirror {
  readonly root: HTMLElement;
  private readonly stations = new Map<string, { group: HTMLElement; heading: HTMLElement; list: HTMLElement }>();
  private readonly agents = new Map<string, HTMLButtonElement>();
  /** The record each agent's button shows now. */
  private readonly shown = new Map<string, AgentModel>();

  constructor(private readonly store: AppStore) {
    this.root = element('nav', { 'data-mirror': true, class: 'mirror', 'aria-label': 'Pixelfleet world' });
    this.root.addEventListener('keydown', (event) => this.onKey(event));
    this.root.addEventListener('focusin', (event) => {
      const id = (event.target as HTMLElement).dataset.agent;
      if (id !== undefined) store.getState().actions.focus(id);
    });
  }

  /** Brings the DOM in line with the model, touching only what changed. */
  sync(model: WorldModel): void {
    const counts = new Map<string, number>();
    for (const agent of model.agents) counts.set(agent.stationKey, (counts.get(agent.stationKey) ?? 0) + 1);
    const seenStations = new Set<string>();
    model.stations.forEach((station, index) => {
      seenStations.add(station.key);
      let entry = this.stations.get(station.key);
      if (!entry) {
        const heading = element('h2');
        const list = element('ul');
        const key = station.key;
        const menu = element('button', { type: 'button', 'data-station-menu': key, onclick: () => this.store.getState().actions.openStationMenu(key, { x: innerWidth / 2 - 70, y: innerHeight / 3 }) }, 'Station menu');
        const group = element('section', { 'data-station': station.key, role: 'group' }, heading, menu, list);
        entry = { group, heading, list };
        this.stations.set(station.key, entry);
      }
      if (this.root.children[index] !== entry.group) this.root.insertBefore(entry.group, this.root.children[index] ?? null);
      const label = stationLabel(station, counts.get(station.key) ?? 0);
      setAttribute(entry.group, 'aria-label', label);
      if (entry.heading.textContent !== label) entry.heading.textContent = label;
    });
    for (const [key, entry] of this.stations) {
      if (seenStations.has(key)) continue;
      entry.group.remove();
      this.stations.delete(key);
    }
    const seenAgents = new Set<string>();
    for (const agent of model.agents) {
      seenAgents.add(agent.id);
      let button = this.agents.get(agent.id);
      if (!button) {
        // The card shown while the button has focus describes the agent (activity, since, subagents).
        button = element('button', { type: 'button', 'data-agent': agent.id, 'aria-describedby': HOVER_CARD_ID });
        const item = element('li', {}, button);
        button.addEventListener('click', () => this.store.getState().actions.openTray(agent.id));
        this.agents.set(agent.id, button);
        this.stations.get(agent.stationKey)?.list.append(item);
      }
      const list = this.stations.get(agent.stationKey)?.list;
      const item = button.parentElement!;
      // An unchanged record in its station's list needs nothing (most agents, most snapshots).
      if (this.shown.get(agent.id) === agent && item.parentElement === list) continue;
      this.shown.set(agent.id, agent);
      if (list && item.parentElement !== list) {
        const hadFocus = document.activeElement === button;
        list.append(item);
        if (hadFocus) button.focus();
      }
      setAttribute(button, 'data-role', agent.role === null ? '' : agent.stationKey);
      setAttribute(button, 'data-subagents', badgeText(agent.subagents) ?? '0');
      setAttribute(button, 'data-activity', agent.activity.state);
      setAttribute(button, 'data-why', agent.activity.why ?? '');
      setAttribute(button, 'data-team', agent.team ?? '');
      setAttribute(button, 'data-team-lead', agent.teamLead ? 'true' : 'false');
      setAttribute(button, 'data-context-level', agent.context.level);
      setAttribute(button, 'data-context-fill', agent.context.percent === null ? '' : String(agent.context.percent / 100));
      setAttribute(button, 'data-host', agent.host ?? '');
      setAttribute(button, 'data-unreachable', agent.unreachable ? 'true' : 'false');
      setAttribute(button, 'data-drift', agent.drift ? agent.drift.join(' ') : '');
      setAttribute(button, 'data-context-warn', (agent.nearCompact ?? null) !== null ? 'true' : 'false');
      setAttribute(button, 'aria-label', agentLabel(agent));
      if (button.textContent !== agent.name) button.textContent = agent.name;
    }
    for (const [id, button] of this.agents) {
      if (seenAgents.has(id)) continue;
      button.parentElement?.remove();
      this.agents.delete(id);
      this.shown.delete(id);
    }
  }

  /** Moves keyboard focus to an agent's button. */
  focusAgent(id: string): void {
    this.agents.get(id)?.focus();
  }

  private onKey(event: KeyboardEvent): void {
    const target = event.target as HTMLElement;
    const id = target.dataset.agent;
    const state = this.store.getState();
    // Esc with nothing open leaves the list for the world (the docked line closes; the world's keys work again).
    if (event.key === 'Escape' && state.ui.tray === null && !state.ui.jobsOpen && state.ui.picker === null && !state.history.viewing && !state.history.away) {
      (document.querySelector('#world > canvas:not(.backdrop)') as HTMLElement | null)?.focus();
      return;
    }
    if (id === undefined) return;
    const { actions } = state;
    if (event.key === 'Enter') {
      event.preventDefault();
      actions.openTray(id);
    } else if (event.key === 'r' || event.key === 'R') {
      event.preventDefault();
      void actions.openPicker(id);
    } else if (['ArrowDown', 'ArrowRight', 'ArrowUp', 'ArrowLeft'].includes(event.key)) {
      event.preventDefault();
      const buttons = [...this.root.querySelectorAll<HTMLButtonElement>('button[data-agent]')];
      const index = buttons.indexOf(target as HTMLButtonElement);
      const step = event.key === 'ArrowDown' || event.key === 'ArrowRight' ? 1 : -1;
      buttons[(index + step + buttons.length) % buttons.length]?.focus();
    }
  }
}
