/**
 * The composition root: builds every service in order, wires them to the contract's handlers, and disposes
 * them all. The Electron shell, the browser-mode host and the CLI all start the app through here.
 */
import { UsageLedger } from '../sources/readers/claude/ledger';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createEventStream, type EventListener } from '../edges/transport/events';
import { createUpdateSender } from '../edges/transport/updates';
import type { Harness, Notice } from '../../shared/schemas';
import packageJson from '../../package.json';
import { appPaths, type AppPaths } from './paths';
import { resolveHarnessHomes } from '../sources/readers/homes';
import { startCommands } from './startCommand';
import { FleetService } from '../core/fleet/FleetService';
import { confineSeat } from '../core/fleet/seatResolver';
import { HistoryService } from '../core/history/HistoryService';
import { JobsService } from '../core/jobs/JobsService';
import { LiveUpdates } from '../core/fleet/LiveUpdates';
import { AutoOpen } from '../core/fleet/autoOpen';
import { prepareDemo, type DemoHandle } from '../dev/demo/demoSetup';
import { writeDemoHistory } from '../dev/demo/history';
import { NotifierService } from '../core/notify/NotifierService';
import { PaceNotifier } from '../core/notify/PaceNotifier';
import { blockReport, paceReport, usageByReport, type PaceSources } from './paceHandlers';
import { defaultBudgetSettings } from './settings/budgetSettings';
import { PersonaService } from '../core/personas/PersonaService';
import type { BackgroundPass } from '../sources/readers/harness';
import type { SeatReader } from '../sources/readers/port';
import { createReaders } from '../sources/readers/registry';
import { usageReport } from '../core/usage/usageReport';
import { loadSettings } from './settings/loadSettings';
import { createRouter, type Handlers, type Router } from '../edges/transport/router';
import { isSafeExternalUrl } from '../edges/transport/externalUrl';
import { LaunchService } from '../core/launch/LaunchService';
import { WorkService } from '../sources/work/WorkService';
import { createTeamsPort } from '../sources/teams';
import { exportProfile, readProfileView, saveProfileView } from '../core/roles/profileHandlers';
import { ServiceError } from '../kit/errors';
import { openRemotes } from '../edges/remote/openRemotes';
import { routeRemotes } from '../edges/remote/routeRemotes';
import { splitRemoteId } from '../edges/remote/namespace';
import { probeMachine } from '../edges/remote/machineProbe';
import { TerminalAdapter } from '../core/terminal/TerminalAdapter';
import { TerminalService } from '../core/terminal/TerminalService';
import { terminalHandlers } from './terminalHandlers';
import { DispatchService } from '../core/dispatch/DispatchService';
import { answerOrThrow, dispatchHandlers } from './dispatchHandlers';

/** How the app is started. */
export interface AppOptions {
  home: string;
  mode: 'electron' | 'web';
  /** Start the demo fleet (simulated Claude Code, Codex and OpenCode sessions) inside the home. */
  demo?: { agents: number };
  env?: NodeJS.ProcessEnv;
  /** Opens a validated http(s) URL in the system browser (Electron); absent in browser mode. */
  openExternal?: (url: string) => Promise<void>;
  /** Start file watching and the safety poll (off for one-shot CLI commands). */
  live?: boolean;
  log?: (message: string) => void;
  /** Join the remotes the home lists (off for `serve --stdio`: a remote never reaches further). */
  remotes?: boolean;
}

/** A running app: its router, its event stream and its services. */
export interface App {
  readonly paths: AppPaths;
  readonly router: Router;
  readonly fleet: FleetService;
  readonly personas: PersonaService;
  readonly work: WorkService;
  readonly jobs: JobsService;
  readonly dispatch: DispatchService;
  readonly demo: DemoHandle | null;
  /** Resolves once the usage background pass has read every file it was asked for (a one-shot command waits on it). */
  usageIdle(): Promise<void>;
  onEvent(listener: EventListener): () => void;
  dispose(): Promise<void>;
}

/** The app's version, from package.json. */
export const APP_VERSION: string = packageJson.version;

/** Builds and starts the services for one app home. */
export async function createApp(options: AppOptions): Promise<App> {
  const env = options.env ?? process.env;
  const log = options.log ?? ((message: string) => console.error(message));
  const paths = appPaths(options.home);
  await mkdir(paths.home, { recursive: true });

  const demo = options.demo ? await prepareDemo({ home: paths.home, agents: options.demo.agents, log }) : null;
  const { settings, problems } = await loadSettings(paths.settings);
  const settingsNotices: Notice[] = problems.map((message, index) => ({ id: `settings-${index}`, level: 'warning', message }));
  // A running app tells settings it cannot use on stderr as well as in the world (one-shot commands print their own).
  if (options.live !== false) for (const message of problems) log(`pixelfleet: ${message}`);
  const workSources = [...(settings.workSources ?? []), ...(demo ? [{ kind: 'markdown' as const, dir: demo.backlogDir }] : [])];

  const personas = new PersonaService({ file: paths.personas });
  const homes = resolveHarnessHomes(env);
  if (demo) {
    // The demo reads only its own homes: its Claude journals, Codex rollouts and OpenCode database.
    homes.claude = demo.claudeHome;
    homes.codex = demo.codexHome;
    homes.opencodeDb = demo.openCodeDb ?? join(paths.home, 'demo', 'opencode', 'opencode.db');
    homes.opencodeDataDir = dirname(homes.opencodeDb);
  }
  const passes: BackgroundPass[] = [];
  const keepLedger = (ledger: UsageLedger): UsageLedger => (passes.push(ledger), ledger);
  const readers: Partial<Record<Harness, SeatReader>> = createReaders(homes, { context: { appHome: paths.home, log, keep: (pass) => passes.push(pass) } });
  const work = new WorkService({ sources: workSources, env, refreshMs: (settings.refreshSeconds ?? 60) * 1000 });
  const history = await HistoryService.open({ file: paths.history, aliasFile: paths.jobAliases, settings: settings.history, record: options.live !== false, log });
  const aliases = history.aliases;
  // Seated before the fleet follows the store: a census after each of 500 hires made a large demo start in minutes.
  if (demo) await demo.seatPersonas(personas);
  const fleet = new FleetService({ personas, readers, work, teams: createTeamsPort(), notices: () => [...settingsNotices, ...history.notices()], log });
  if (demo) await history.fillPast(() => fleet.read({ fresh: true }), writeDemoHistory);
  const jobs = new JobsService({ fleet, aliases, reminders: settings.reminders, testClock: env.PIXELFLEET_TEST_CLOCK === '1', log });

  const events = createEventStream(log);
  // History is a subscriber to the change stream: the same whole-then-patches the page gets.
  const offHistory = events.onEvent((event, payload) => history.onEvent(event, payload));
  const emit = events.emit;
  const updates = createUpdateSender(emit);
  const hub = options.remotes === false ? null : await openRemotes({ home: paths.home, env, appVersion: APP_VERSION, updates, log, relay: (event, payload) => {
    emit(event, payload as never);
    // A reply typed into a remote agent's terminal from here is this host's history too (never its text).
    if (event === 'terminal.sent') history.recordReply((payload as { personaId: string }).personaId, Date.parse((payload as { at: string }).at));
  } });
  const offFleet = fleet.onChange((snapshot) => {
    if (hub) hub.fleet(snapshot);
    else updates.fleet(snapshot);
    // A seat opened or hired is watched from its first snapshot on, not from the next refresh.
    void live?.syncWatched();
  });
  // One notifier for every shell, for needs-you and job reminders alike: it decides; the Electron shell or the page shows.
  const notifier = new NotifierService({
    fleet,
    jobs,
    settings: settings.notify,
    deliver: (note) => emit('notify.show', note),
    log,
  });
  // Budget warnings (issue 41) go through the same delivery.
  const budget = settings.budget ?? defaultBudgetSettings();
  const paceNotifier = new PaceNotifier({ fleet, budget, sound: settings.notify.sound, deliver: (note) => emit('notify.show', note), log });
  // The blocks read the Claude usage pass's minute buckets: the ledger the Claude harness handed over, else one of its own.
  const usageLedger = passes.find((pass): pass is UsageLedger => pass instanceof UsageLedger) ?? keepLedger(new UsageLedger({ appHome: paths.home, log }));
  const pace: PaceSources = { fleet, ledger: usageLedger, claudeHome: homes.claude, usageBy: (by, from, to) => history.usageBy(by, from, to), budget };
  const offJobs = jobs.onChange((board) => (hub ? hub.board(board) : updates.jobs(board)));

  const launcher = new LaunchService({ fleet, personas, env, terminal: settings.terminal });
  const terminals = new TerminalService({ adapter: new TerminalAdapter(env), personas, env, emit, recordReply: (personaId, at) => history.recordReply(personaId, at), demo: demo !== null });
  const launchAndRecord = async (request: Parameters<LaunchService['launch']>[0]) => {
    const result = await launcher.launch(request);
    history.recordLaunch({ personaId: result.persona.id, harness: request.harness, name: result.persona.name, role: result.persona.role ?? null });
    return result;
  };
  const dispatch = new DispatchService({
    home: paths.home,
    env,
    itemsWithId: (id) => work.itemsWithId(id),
    markdownFolders: workSources.flatMap((source) => (source.kind === 'markdown' ? [source.dir] : [])),
    personas,
    fleet: () => fleet.read({ fresh: true }),
    launch: launchAndRecord,
    locate: (personaId) => terminals.locate(personaId),
    send: (personaId, text) => terminals.send(personaId, text),
    worktreeDir: settings.worktreeDir ?? null,
    emit: (dispatches) => emit('work.dispatched', { dispatches }),
    // A dispatch on a remote goes through the router, which forwards it there (issue 42) or refuses it without remotes.
    elsewhere: { split: splitRemoteId, carryOut: (host, request) => answerOrThrow(router.handle('work.dispatchHere', { ...request, host })) },
  });
  const autoOpen = new AutoOpen({ fleet, rules: settings.autoOpen ?? [], log });
  let live: LiveUpdates | null = null;
  if (options.live !== false) {
    hub?.start();
    work.start();
    jobs.start();
    dispatch.start();
    live = new LiveUpdates({ fleet, extraPaths: [paths.personas], onPoll: async () => {
        await autoOpen.check();
      }, log });
    await live.start();
    await autoOpen.check();
  }

  const start = startCommands(env, options.mode);
  const handlers: Handlers = {
    'app.info': async () => ({
      ...(await probeMachine(homes, env)),
      name: 'Pixelfleet',
      version: APP_VERSION,
      mode: options.mode,
      demo: demo !== null,
      paths: { home: paths.home, personas: paths.personas, settings: paths.settings },
      start: { command: start.start, demo: start.demo },
    }),
    'fleet.read': (request) => fleet.read({ fresh: request.fresh }),
    'fleet.candidates': (request) => fleet.candidates({ refresh: request.refresh }),
    'fleet.lobby': async (request) => ({ candidates: await fleet.candidates({ refresh: request.refresh }), unreachable: [] }),
    'seats.open': (request) => fleet.openSeat(request),
    'seats.close': (request) => fleet.closeSeat(request.seatId),
    'agents.hire': async (request) => {
      const seat = await confineSeat(fleet, request.seat);
      return personas.hire({ ...request, seat });
    },
    'personas.list': () => personas.list(),
    'personas.setRole': (request) => personas.setRole(request.personaId, request.role),
    'personas.moveSeat': async (request) => {
      const seat = await confineSeat(fleet, request.seat);
      return personas.moveSeat(request.personaId, seat);
    },
    'personas.rename': (request) => personas.rename(request.personaId, request.name),
    'roles.list': () => personas.rolesList(),
    'roles.profile': (request) => readProfileView({ home: paths.home, env }, request),
    'roles.saveProfile': (request) => saveProfileView({ home: paths.home, env }, request),
    'roles.export': (request) => exportProfile({ home: paths.home, env }, request),
    'work.items': (request) => work.items(request.label, { refresh: request.refresh }),
    'work.refresh': async () => ({ changed: await work.refreshAll() }),
    'subagents.replay': (request) => fleet.replay(request.seat, request.nativeId, request.cursor),
    'jobs.list': async (request) => {
      const board = await jobs.board();
      return request.all ? board : { ...board, jobs: board.jobs.filter((job) => job.state === 'running') };
    },
    'usage.read': async (request) => usageReport(await fleet.read({ fresh: true }), (seatId) => fleet.usageTally(seatId), request.since, Date.now()),
    'usage.blocks': (request) => blockReport(pace, request.allSessions === true),
    'usage.by': (request) => usageByReport(pace, request.by, request.since),
    'usage.pace': () => paceReport(pace),
    'launch.options': () => launcher.launchOptions(),
    'agents.launch': async (request) => {
      if (request.host !== undefined) throw new ServiceError('not_found', `This end joins no remotes, so it cannot launch on ${request.host}.`);
      return launchAndRecord(request);
    },
    'agents.attach': (request) => launcher.attach(request.personaId),
    'agents.openTerminal': (request) => launcher.openTerminal(request.personaId),
    'test.advanceClock': async (request) => ({ offsetMs: await jobs.advanceClock(request.ms) }),
    'history.span': (request) => history.span(request.buckets),
    'history.at': (request) => history.at(request.at),
    'history.window': () => history.window(),
    'history.digest': (request) => history.digest(request.since),
    'shell.openExternal': async (request) => {
      if (!options.openExternal || !isSafeExternalUrl(request.url)) return { opened: false };
      await options.openExternal(request.url);
      return { opened: true };
    },
    ...terminalHandlers(terminals),
    ...dispatchHandlers(dispatch),
  };
  const router = createRouter(hub ? routeRemotes(handlers, hub, { waitForRemotes: options.live === false }) : handlers, log);

  return {
    paths,
    router,
    fleet,
    personas,
    work,
    jobs,
    dispatch,
    demo,
    usageIdle: async () => void (await Promise.all(passes.map((pass) => pass.idle()))),
    onEvent: events.onEvent,
    async dispose() {
      offFleet();
      terminals.dispose();
      dispatch.dispose();
      hub?.dispose();
      fleet.dispose();
      notifier.dispose();
      paceNotifier.dispose();
      offJobs();
      jobs.dispose();
      await live?.dispose();
      await demo?.stop();
      work.dispose();
      for (const reader of Object.values(readers)) reader?.dispose();
      for (const pass of passes) await pass.dispose();
      personas.dispose();
      offHistory();
      history.dispose();
    },
  };
}
