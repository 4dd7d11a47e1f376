/**
 * The station menu's actions: a list of `{ label, run }` entries, each saying which stations it applies to, so a new
 * action joins the menu by adding one entry. Pure: no DOM.
 */

/** A station as the menu sees it. */
export interface StationTarget {
  key: string;
  /** The role as the owner wrote it. */
  label: string;
  lobby: boolean;
}

/** One action of the station menu. */
export interface StationAction {
  id: string;
  label: string;
  appliesTo(station: StationTarget): boolean;
  run(station: StationTarget): void;
}

/** One entry of an open menu. */
export interface MenuItem {
  id: string;
  label: string;
  run(): void;
}

/** The menu entries of a station, in the actions' order. */
export function stationMenuItems(station: StationTarget, actions: readonly StationAction[]): MenuItem[] {
  return actions.filter((action) => action.appliesTo(station)).map((action) => ({ id: action.id, label: action.label, run: () => action.run(station) }));
}

/** "Launch…": hire a persona with the station's role and start a harness for it (not in the lobby: it has no role). */
export function launchAction(open: (station: StationTarget) => void): StationAction {
  return { id: 'launch', label: 'Launch…', appliesTo: (station) => !station.lobby, run: open };
}

/** "Profile…": the role's profile and its export as an agent definition (not in the lobby: it has no role). */
export function profileAction(open: (station: StationTarget) => void): StationAction {
  return { id: 'profile', label: 'Profile…', appliesTo: (station) => !station.lobby, run: open };
}
