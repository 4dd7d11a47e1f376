/**
 * Hire and launch: hires a persona with a role, starts its harness in a new tmux session and seats the session.
 * Claude Code is seated by the session id chosen here, as soon as discovery lists its journal; Codex and OpenCode by the first new session for the
 * folder discovered after the launch time (the matching `autoOpen` uses), within a deadline. Stop asks the harness to
 * exit and kills the tmux session after a grace period; nothing is deleted. Every seat goes through seat confinement
 * (main/core/fleet/seatResolver.ts), as hires and opens do.
 */
import { randomUUID } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { HarnessSchema, type Candidate, type Harness, type Persona } from '../../../shared/schemas';
import { ServiceError } from '../errors';
import { ruleMatches } from '../fleet/autoOpen';
import type { FleetService } from '../fleet/FleetService';
import { seatIdOf } from '../fleet/seatId';
import { shownValue } from '../../../shared/bounds';
import { LAUNCH_SEAT_DEADLINE_MS } from '../../../shared/launch';
import { confineSeat } from '../fleet/seatResolver';
import type { PersonaService } from '../personas/PersonaService';
import { exportedAgentFor } from '../roles/exportAgent';
import { TerminalAdapter } from '../terminal/TerminalAdapter';
import { agentCharter, claudeRoleStart, HARNESS_EXIT, harnessArgv, parseVersion, tmuxSessionName } from './launchRules';
import { detectHarnesses, detectTmux, runProgram } from './tmux';

/** What `launch` needs. */
export interface LaunchRequest {
  harness: Harness;
  role: string;
  cwd: string;
  name?: string;
  prompt?: string;
}

/** The services and settings a launch runs against. */
export interface LaunchContext {
  fleet: FleetService;
  personas: PersonaService;
  env: NodeJS.ProcessEnv;
  /** How long Codex/OpenCode get to show a new session (default 60 s). */
  seatDeadlineMs?: number;
  pollMs?: number;
}

/** The result of a launch: the persona (seated or not), its tmux session, and why it has no seat when it has none. */
export interface LaunchResult {
  persona: Persona;
  tmuxSession: string;
  argv: string[];
  seated: boolean;
  reason: string | null;
  /** How the role's exported agent was carried into the harness, when there is one (or why it was not). */
  note: string | null;
}

/** Seconds `claude --version` may take. */
const VERSION_TIMEOUT_MS = 5000;

/** The flags that start Claude Code as the role's exported agent for this folder, and what was done; none without one. */
async function claudeRoleArgs(role: string, executable: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ args: string[]; note: string | null }> {
  const agent = await exportedAgentFor(role, 'claude', cwd, env);
  if (!agent) return { args: [], note: null };
  const charter = agentCharter(await readFile(agent.path, 'utf8').catch(() => ''));
  const version = await runProgram(executable, ['--version'], env, VERSION_TIMEOUT_MS);
  const start = claudeRoleStart(version.ok ? parseVersion(version.stdout) : null, { name: agent.name, charter });
  return { args: start.args, note: start.note };
}

async function folderOrThrow(cwd: string): Promise<string> {
  const folder = path.resolve(cwd);
  const info = await stat(folder).catch(() => null);
  if (!info?.isDirectory()) throw new ServiceError('invalid_request', `The folder ${JSON.stringify(cwd)} does not exist or is not a folder.`);
  return folder;
}

/** Hires, starts the harness in tmux, and seats it. Refusals are ServiceErrors; a missing seat is a reason. */
export async function launch(request: LaunchRequest, context: LaunchContext): Promise<LaunchResult> {
  const { env } = context;
  const tmux = detectTmux(env);
  if (!tmux.ok) throw new ServiceError('unavailable', tmux.reason);
  const found = detectHarnesses(env).find((entry) => entry.harness === request.harness)!;
  if (!found.ok) throw new ServiceError('unavailable', `Cannot launch ${request.harness}: ${found.reason}.`);
  const cwd = await folderOrThrow(request.cwd);
  const sessionId = request.harness === 'claude' ? randomUUID() : undefined;
  const before = new Set((await context.fleet.candidates({ refresh: true })).map((entry) => entry.id));
  const launchedAt = new Date().toISOString();
  const persona = await context.personas.hire({ name: request.name, role: request.role });
  const session = tmuxSessionName(persona);
  const terminals = new TerminalAdapter(env);
  if (await terminals.sessionExists(session)) {
    return { persona, tmuxSession: session, argv: [], seated: false, reason: `A tmux session named ${session} already runs; nothing was started.`, note: null };
  }
  const role = request.harness === 'claude' && persona.role ? await claudeRoleArgs(persona.role, found.executable, cwd, env) : { args: [], note: null };
  const argv = harnessArgv({ harness: request.harness, executable: found.executable, cwd, prompt: request.prompt, sessionId, roleArgs: role.args });
  // Rule 6: the session names its persona (and harness), so attach and stop still find it after a rename.
  const started = await terminals.startSession({ session, cwd, argv, personaId: persona.id, harness: request.harness });
  if (!started.ok) return { persona, tmuxSession: session, argv, seated: false, reason: started.reason, note: role.note };
  const matches = (entry: Candidate) =>
    sessionId ? entry.id === seatIdOf({ harness: 'claude', sessionId }) : !before.has(entry.id) && !entry.opened && entry.lastActivity >= launchedAt && ruleMatches({ harness: request.harness, cwd }, entry);
  const seated = await seatWhenDiscovered(persona, matches, context);
  const seconds = Math.round((context.seatDeadlineMs ?? LAUNCH_SEAT_DEADLINE_MS) / 1000);
  const reason = seated
    ? null
    : sessionId
      ? `Claude Code session ${sessionId} wrote no journal within ${seconds} s (it writes one with the first message); the persona stays hired without a seat.`
      : `No new ${request.harness} session appeared for ${cwd} within ${seconds} s; the persona stays hired without a seat.`;
  return { persona: seated ?? persona, tmuxSession: session, argv, seated: Boolean(seated), reason, note: role.note };
}

/** Seats the persona with the first discovered session that matches, through seat confinement, before the deadline. */
async function seatWhenDiscovered(persona: Persona, matches: (entry: Candidate) => boolean, context: LaunchContext): Promise<Persona | null> {
  const deadline = Date.now() + (context.seatDeadlineMs ?? LAUNCH_SEAT_DEADLINE_MS);
  while (Date.now() < deadline) {
    const candidate = (await context.fleet.candidates({ refresh: true })).find(matches);
    if (candidate) {
      const seat = await confineSeat(context.fleet, candidate.seat);
      return context.personas.moveSeat(persona.id, seat);
    }
    await new Promise((resolve) => setTimeout(resolve, context.pollMs ?? 250));
  }
  return null;
}

/**
 * The tmux session of a persona: the running session that carries its id (so a rename loses nothing), else the one its
 * name gives; a not_found ServiceError when there is no such persona.
 */
export async function personaSession(personas: PersonaService, who: string, env: NodeJS.ProcessEnv): Promise<{ persona: Persona; session: string }> {
  const persona = await personas.find(who);
  if (!persona) throw new ServiceError('not_found', `No persona with id or name ${JSON.stringify(shownValue(who))}.`);
  const tagged = await new TerminalAdapter(env).sessionTaggedWith(persona.id);
  return { persona, session: tagged ?? tmuxSessionName(persona) };
}

/** Sends the harness's exit, waits up to `graceMs` for the session to end, then kills it. Deletes nothing. */
export async function stop(persona: Persona, session: string, env: NodeJS.ProcessEnv, graceMs = 5000): Promise<{ ok: true; killed: boolean } | { ok: false; reason: string }> {
  const tmux = detectTmux(env);
  if (!tmux.ok) return { ok: false, reason: tmux.reason };
  const terminals = new TerminalAdapter(env);
  if (!(await terminals.sessionExists(session))) return { ok: false, reason: `No tmux session ${session} runs for ${persona.name}.` };
  const harness = HarnessSchema.safeParse((await terminals.sessionHarness(session)) ?? undefined);
  await terminals.typeIntoSession(session, HARNESS_EXIT[harness.success ? harness.data : (persona.seat?.harness ?? 'claude')]);
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline) {
    if (!(await terminals.sessionExists(session))) return { ok: true, killed: false };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const killed = await terminals.killSession(session);
  if (!killed.ok && (await terminals.sessionExists(session))) return { ok: false, reason: `tmux could not end ${session}: ${killed.reason}` };
  return { ok: true, killed: true };
}
