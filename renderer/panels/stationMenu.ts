/**
 * The station menu: a small pixel-styled menu at the pointer with one button per action (stationActions.ts). Arrow
 * keys move between entries, Escape or a click elsewhere closes it.
 */
import { placeAt, uiZoom } from './uiScale';
import type { AppStore } from '../store/createAppStore';
import { element } from './dom';
import { stationMenuItems, type StationAction, type StationTarget } from './stationActions';

/** The menu panel; `lookup` gives the station a key names (null when it is gone). */
export class StationMenu {
  readonly root = element('div', { 'data-panel': 'station-menu', class: 'panel station-menu', role: 'menu' });
  private shown: { stationKey: string; x: number; y: number } | null = null;

  constructor(
    private readonly store: AppStore,
    private readonly actions: readonly StationAction[],
    private readonly lookup: (key: string) => StationTarget | null,
  ) {
    this.root.hidden = true;
    this.root.addEventListener('keydown', (event) => this.onKey(event));
    window.addEventListener('pointerdown', (event) => {
      if (!this.root.hidden && !this.root.contains(event.target as Node)) store.getState().actions.closeStationMenu();
    }, true);
    store.subscribe((state) => this.render(state.ui.stationMenu));
  }

  private render(menu: { stationKey: string; x: number; y: number } | null): void {
    if (menu === this.shown) return;
    this.shown = menu;
    const station = menu ? this.lookup(menu.stationKey) : null;
    this.root.hidden = !menu || !station;
    if (!menu || !station) return this.root.replaceChildren();
    const items = stationMenuItems(station, this.actions);
    this.root.dataset.stationMenuFor = station.key;
    this.root.setAttribute('aria-label', `${station.label} station`);
    this.root.replaceChildren(
      element('p', { class: 'station-menu-title' }, station.label),
      ...items.map((item) => element('button', { type: 'button', role: 'menuitem', 'data-menu-action': item.id, onclick: () => item.run() }, item.label)),
      ...(items.length === 0 ? [element('p', { class: 'muted' }, 'Nothing to do here yet.')] : []),
    );
    const zoom = uiZoom();
    placeAt(this.root, Math.max(4, Math.min(menu.x, innerWidth - 180 * zoom)), Math.max(4, Math.min(menu.y, innerHeight - (40 + items.length * 28) * zoom)));
    this.root.querySelector<HTMLButtonElement>('button')?.focus();
  }

  private onKey(event: KeyboardEvent): void {
    const buttons = [...this.root.querySelectorAll<HTMLButtonElement>('button')];
    const index = buttons.indexOf(document.activeElement as HTMLButtonElement);
    if (event.key === 'Escape') this.store.getState().actions.closeStationMenu();
    else if (event.key === 'ArrowDown') buttons[(index + 1) % buttons.length]?.focus();
    else if (event.key === 'ArrowUp') buttons[(index - 1 + buttons.length) % buttons.length]?.focus();
    else return;
    event.preventDefault();
  }
}
