/** The shape of the renderer's one store: slices for the fleet, roles, lobby, trays/replay and the UI. */
import type { Candidate, FleetSnapshot, RoleCount, SubagentEntry } from '../../shared/schemas';
import type { ReplayLine } from './replayLines';

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

/**
 * The replay expanded in the open tray: every line read so far (older pages prepended as the owner scrolls up, new
 * lines appended while the child runs), keyed for reconciliation. It stays open until closed, even when its entry
 * leaves the seat's lists (`pinned` keeps the entry as last seen).
 */
export interface ReplayState {
  personaId: string;
  seatId: string;
  nativeId: string;
  status: 'loading' | 'ok' | 'unavailable' | 'error';
  /** Lines oldest first, with keys that never change while the replay is open. */
  lines: ReplayLine[];
  /** The entry as the tray last listed it (label, state, times), kept while the replay is open. */
  pinned: SubagentEntry | null;
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
  /** Opens a replay of the open tray's seat, or of `seatId` (another panel mounting the replay pane). */
  openReplay(nativeId: string, seatId?: string): Promise<void>;
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
