/** The shape of the renderer's one store: slices for the fleet, roles, lobby, trays/replay and the UI. */
import type { Candidate, FleetSnapshot, ReplayEntry, RoleCount } from '../../shared/schemas';

/** A role change shown before main confirmed it; `previous` is what a refusal rolls back to. */
export interface PendingRole {
  role: string | null;
  previous: string | null;
}

/** A short message for the owner (a refused role, a failed request). */
export interface Message {
  id: number;
  level: 'info' | 'error';
  text: string;
}

/** The replay expanded in the open tray: the newest page plus any older pages the owner scrolled to. */
export interface ReplayState {
  personaId: string;
  seatId: string;
  nativeId: string;
  status: 'loading' | 'ok' | 'unavailable' | 'error';
  /** The newest page, replaced on every refresh while the child runs. */
  latest: ReplayEntry[];
  /** Older pages, oldest first, prepended as the owner scrolls up. */
  older: ReplayEntry[];
  olderCursor: string | null;
  loadingOlder: boolean;
  running: boolean;
  reason?: string;
}

/** Panels, focus and optimistic edits. */
export interface UiState {
  focused: string | null;
  tray: string | null;
  picker: string | null;
  backlog: string | null;
  lobbyOpen: boolean;
  pending: Record<string, PendingRole>;
  messages: Message[];
  reducedMotion: boolean;
  error: string | null;
}

/** Every writer of the store; nothing else calls setState. */
export interface AppActions {
  load(): Promise<void>;
  receiveSnapshot(snapshot: FleetSnapshot): void;
  setRole(personaId: string, role: string | null): Promise<boolean>;
  focus(personaId: string | null): void;
  openTray(personaId: string): void;
  closeTray(): void;
  openReplay(nativeId: string): Promise<void>;
  loadOlderReplay(): Promise<void>;
  collapseReplay(): void;
  openPicker(personaId: string): Promise<void>;
  closePicker(): void;
  loadRoles(): Promise<void>;
  openBacklog(roleKey: string | null): void;
  openExternal(url: string): Promise<void>;
  openLobby(): Promise<void>;
  closeLobby(): void;
  openCandidate(candidateId: string): Promise<boolean>;
  pushMessage(level: Message['level'], text: string): void;
  dismissMessage(id: number): void;
  setReducedMotion(reduced: boolean): void;
  dispose(): void;
}

/** The whole state. */
export interface AppState {
  fleet: FleetSnapshot | null;
  roles: RoleCount[] | null;
  candidates: Candidate[] | null;
  ui: UiState;
  replay: ReplayState | null;
  /** Requests made, for tests and tools (e.g. that collapsing a replay stops its reads). */
  counters: { replayRequests: number };
  actions: AppActions;
}
