/**
 * The shape of the renderer's one store: slices for the fleet, roles, lobby, trays/replay, history, profiles, launch
 * and the UI, with every slice's writers. The slices build their actions against this shape and import nothing else
 * of each other's.
 */
import type { RequestOf, RoleExportResult, RoleProfileView } from '../../shared/contract';
import type { DigestEntry, DigestTotals, HistoryMoment, HistorySpan } from '../../shared/history';
import type { JobBoard, JobFilter } from '../../shared/jobs';
import type { AttachInfo, LaunchOptions, LaunchRequest, LaunchResult } from '../../shared/launch';
import type { ProfileFieldError } from '../../shared/roleProfile';
import type { Candidate, FleetSnapshot, RoleCount, SubagentEntry, WorkItem } from '../../shared/schemas';
import type { DispatchView } from '../../shared/dispatch';
import type { FleetPatch, JobsPatch } from '../../shared/updates';
import type { PlaybackSpeed } from '../history/playback';
import type { ReplayLine } from './replayLines';

/** The moment the world shows instead of now. */
export interface Viewing {
  /** The moment asked for (where the handle is). */
  atMs: number;
  /** Main's answer for the latest moment answered (null until the first: the live world shows, marked as past). */
  moment: HistoryMoment | null;
  /** Why the last moment could not be read, if it could not. */
  error: string | null;
}

/** What happened while the owner was away, in the panel's order. */
export interface AwayDigest {
  sinceMs: number;
  untilMs: number;
  entries: DigestEntry[];
  /** Entries main left out past its bound. */
  more: number;
  /** What the whole digest counts (listed or not). */
  totals: DigestTotals;
}

/** The history slice of the store. */
export interface HistoryState {
  timelineOpen: boolean;
  span: HistorySpan | null;
  spanError: string | null;
  viewing: Viewing | null;
  playing: PlaybackSpeed | null;
  away: AwayDigest | null;
  /** The recent history the page holds and answers moments from itself (ms), while the timeline is open; else null. */
  held: { fromMs: number; untilMs: number } | null;
}

/** The history slice's writers. */
export interface HistoryActions {
  toggleTimeline(): void;
  /** Reads the retained span again (the bar's strips and columns, the away setting). */
  refreshSpan(): Promise<void>;
  /** Shows the world as it was at `atMs` (pausing playback); at or past the span's end, returns to live. */
  seek(atMs: number): void;
  /** Plays the past at `speed` from the moment shown (from an hour ago, or the span's start if later, when live). */
  play(speed: PlaybackSpeed): void;
  pause(): void;
  /** Shows now again. */
  goLive(): void;
  /** The window lost the focus at `nowMs`. */
  windowAway(nowMs?: number): void;
  /** The window has the focus again: after long enough away, the digest since then is read and shown if not empty. */
  windowBack(nowMs?: number): Promise<void>;
  /** For tests: as if the window had been away `minutes` minutes and came back now. */
  simulateAway(minutes: number): Promise<void>;
  dismissAway(): void;
}

/** The export part of the profile panel. */
export interface ProfileExportState {
  status: 'idle' | 'busy';
  /** The last preview (dry run) or write, as main answered it. */
  result: RoleExportResult | null;
  error: string | null;
}

/** The profile panel of one station. */
export interface ProfileState {
  stationKey: string;
  role: string;
  status: 'loading' | 'ready' | 'saving';
  view: RoleProfileView | null;
  /** Problems main found with the last save, by field. */
  errors: ProfileFieldError[];
  /** A failure of the request itself. */
  error: string | null;
  /** The file the last save wrote. */
  saved: string | null;
  export: ProfileExportState;
}

/** What an export asks for, less the role (the panel's). */
export type ProfileExportRequest = Omit<RequestOf<'roles.export'>, 'role'>;

/** The profile actions of the store. */
export interface ProfileActions {
  /** Opens the profile panel of a station's role and reads the profile. */
  openProfile(stationKey: string, role: string): Promise<void>;
  closeProfile(): void;
  /** Saves the panel's profile; true when main wrote it. */
  saveProfile(profile: RequestOf<'roles.saveProfile'>['profile']): Promise<boolean>;
  /** Previews (dryRun) or writes the role's agent definition for one harness. */
  exportProfile(request: ProfileExportRequest): Promise<RoleExportResult | null>;
}

/** The launch actions of the store. */
/** A backlog card on its way to a station or an agent. */
export interface CardDrag {
  item: WorkItem;
  /** The station whose board it came from. */
  stationKey: string;
}

/** The dispatch actions of the store (issue 40). */
export interface DispatchActions {
  loadDispatches(): Promise<void>;
  receiveDispatches(dispatches: DispatchView[]): void;
  startCardDrag(drag: CardDrag): void;
  endCardDrag(): void;
  /** Gives an item to a running agent through its terminal; true when it was typed in. */
  giveItem(item: WorkItem, personaId: string): Promise<boolean>;
}

export interface LaunchActions {
  openStationMenu(stationKey: string, at: { x: number; y: number }): void;
  closeStationMenu(): void;
  /** Opens the launch panel for a station's role and asks main what can be launched; with an item, prefilled to dispatch it. */
  openLaunch(stationKey: string, role: string, item?: WorkItem): Promise<void>;
  closeLaunch(): void;
  /** Hires and launches (dispatching the panel's item, if any, in its own worktree when asked); true when seated. */
  launch(request: Omit<LaunchRequest, 'role'>, worktree?: boolean): Promise<boolean>;
  /** How to attach to an agent's tmux session (null when main could not tell). */
  attachInfo(personaId: string): Promise<AttachInfo | null>;
  openTerminal(personaId: string): Promise<void>;
}

/** The store's writers for the fleet and the board. */
export interface UpdateActions {
  /** A whole snapshot; an older one (by cursor) arriving late is dropped. */
  receiveSnapshot(snapshot: FleetSnapshot): void;
  /** The fleet's changes since the snapshot of cursor `patch.from`. */
  receiveFleetPatch(patch: FleetPatch): void;
  /** A board from main; an older one (by revision, else by fleet cursor) arriving late is dropped. */
  receiveJobs(board: JobBoard): void;
  /** The board's changes since the board of revision `patch.from`. */
  receiveJobsPatch(patch: JobsPatch): void;
  /**
   * Reads the fleet and the board whole again. After a reconnect (`restarted`), what they answer replaces what the
   * store holds even when its cursor is lower: a restarted host counts from the start again.
   */
  resync(options?: { restarted?: boolean }): Promise<void>;
}

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

/** A remote host the lobby could not list, and why. */
export interface LobbyUnreachable {
  host: string;
  reason: string;
}

/** The whole state. */
export interface AppState {
  fleet: FleetSnapshot | null;
  roles: RoleCount[] | null;
  candidates: Candidate[] | null;
  /** Remote hosts whose sessions the lobby could not list, with why (issue 38: shown, never silently left out). */
  lobbyUnreachable: LobbyUnreachable[];
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
