/** The shape of the renderer's one store: slices for the fleet, roles, lobby, trays/replay and the UI. */
import type { JobBoard, JobFilter } from '../../shared/jobs';
import type { Candidate, FleetSnapshot, RoleCount, SubagentEntry, WorkItem } from '../../shared/schemas';
import type { LaunchOptions, LaunchResult } from '../../shared/launch';
import type { LaunchActions } from './launchActions';
import type { CardDrag, DispatchActions } from './dispatchActions';
import type { DispatchView } from '../../shared/dispatch';
import type { ProfileActions, ProfileState } from './profileActions';
import type { ReplayLine } from './replayLines';
import type { UpdateActions } from './updateActions';
import type { HistoryActions, HistoryState } from './historyActions';

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

/** Which panel a replay belongs to. */
export type ReplayOwner = 'tray' | 'board';

/**
 * The replay expanded in the open tray (or the jobs board): every line read so far (older pages prepended as the owner scrolls up, new
 * lines appended while the child runs), keyed for reconciliation. It stays open until closed, even when its entry
 * leaves the seat's lists (`pinned` keeps the entry as last seen).
 */
export interface ReplayState {
  /** The panel that opened it and shows it: the open tray, or the jobs board's expanded job. */
  owner: ReplayOwner;
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

/** The launch panel of one station: what main offers, whether a launch runs, and its outcome or refusal. */
export interface LaunchState {
  stationKey: string;
  role: string;
  status: 'loading' | 'ready' | 'launching' | 'done';
  options: LaunchOptions | null;
  /** A refusal or failure, shown in the panel. */
  error: string | null;
  /** An unseated outcome (seated launches close the panel). */
  result: LaunchResult | null;
  /** The backlog item dropped on the station (the launch then dispatches it), and its prompt once main built it. */
  item?: WorkItem | null;
  prompt?: string | null;
}

/** A short confirmation shown in the world for a moment (and read out by screen readers). */
export interface Toast {
  id: number;
  text: string;
}

/** Panels, focus and optimistic edits. */
export interface UiState {
  focused: string | null;
  tray: string | null;
  picker: string | null;
  backlog: string | null;
  lobbyOpen: boolean;
  /** The jobs board: open or not, its filters, and the job expanded (its row key), if any. */
  jobsOpen: boolean;
  jobsFilter: JobFilter;
  jobSelected: string | null;
  /** The station whose menu is open, and where on the page. */
  stationMenu: { stationKey: string; x: number; y: number } | null;
  launch: LaunchState | null;
  /** The profile panel of a station's role. */
  profile: ProfileState | null;
  pending: Record<string, PendingRole>;
  messages: Message[];
  reducedMotion: boolean;
  error: string | null;
  /** The last confirmation (a saved role change); the toast panel shows each new one briefly. */
  toast: Toast | null;
}

/** Every writer of the store; nothing else calls setState. */
export interface AppActions extends LaunchActions, ProfileActions, UpdateActions, HistoryActions, DispatchActions {
  load(): Promise<void>;
  setRole(personaId: string, role: string | null): Promise<boolean>;
  focus(personaId: string | null): void;
  openTray(personaId: string): void;
  closeTray(): void;
  /** Opens a replay of the open tray's seat, or of `seatId` for another panel mounting the replay pane (`owner`). */
  openReplay(nativeId: string, seatId?: string, owner?: ReplayOwner): Promise<void>;
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
  openJobs(): Promise<void>;
  closeJobs(): void;
  toggleJobs(): void;
  setJobsFilter(filter: JobFilter): void;
  /** Expands a job (its replay and files touched) or, with null or the expanded key, collapses it. */
  selectJob(key: string | null): void;
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
  /** The jobs board as main last sent it (null before the first). */
  jobs: JobBoard | null;
  /** Main's clock minus the page's when the board arrived (ms), so elapsed times tick on main's clock. */
  jobsClockOffsetMs: number;
  ui: UiState;
  replay: ReplayState | null;
  /** The timeline, the moment the world shows (live or past) and the away digest (issue 27). */
  history: HistoryState;
  /**
   * Requests made and updates taken, for tests and tools: replay reads (collapsing a replay stops them), whole reads
   * of the fleet (start, a gap, a reconnect) and fleet changes applied.
   */
  counters: { replayRequests: number; fleetReads: number; fleetPatches: number };
  /** The active dispatches (issue 40), as main last sent them. */
  dispatches: DispatchView[];
  /** A backlog card being dragged, if any. */
  cardDrag: CardDrag | null;
  actions: AppActions;
}
