/**
 * Sets up the demo fleet inside an app home: simulated Claude sessions, Codex rollouts and OpenCode sessions (about a
 * sixth of the agents each), a Markdown backlog, and their personas.
 */
import { join } from 'node:path';
import { distinctNames } from '../../core/personas/names';
import { startHarnessSeats, harnessShares } from './harnessSeats';
import { startDemo } from './index';
import { CHARACTER_NAMES, ROLE_ROTATION } from './prose';
import { startDemoTeam } from './team';
import type { PersonaPort } from '../../core/fleet/ports';
import type { SeatAddress } from '../../../shared/schemas';

/** How often the demo team sends a message, in milliseconds. */
export const DEMO_TEAM_MESSAGE_MS = 4000;
/** The demo's seed: the same seed gives the same sessions, so a restart continues them. */
const DEMO_SEED = 7;

/** The running demo, as the app sees it. */
export interface DemoHandle {
  claudeHome: string;
  codexHome: string;
  /** The OpenCode database of the demo (null when it could not be written here). */
  openCodeDb: string | null;
  backlogDir: string;
  /** Gives every simulated session a persona holding its seat (once; a restart keeps the owner's changes). */
  seatPersonas(personas: PersonaPort): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the simulator in `<home>/demo`. */
export async function prepareDemo(options: { home: string; agents: number; log?: (message: string) => void }): Promise<DemoHandle> {
  const home = join(options.home, 'demo');
  const shares = harnessShares(options.agents);
  const demo = await startDemo({ home, agents: shares.claude, seed: DEMO_SEED });
  // The other harnesses' seats take the names after the Claude sessions', so no two demo agents share a name.
  // Their roles continue the Claude sessions' rotation, so a small demo still has the custom role and the lobby.
  const names = distinctNames(CHARACTER_NAMES, options.agents).slice(shares.claude);
  const roles = names.map((_, index) => ROLE_ROTATION[(shares.claude + index) % ROLE_ROTATION.length]);
  const others = await startHarnessSeats({ home, codex: shares.codex, opencode: shares.opencode, names, roles, seed: DEMO_SEED, log: options.log });
  // A small team among the first sessions, so messages walk between agents of the demo.
  const team = await startDemoTeam({ claudeHome: demo.claudeHome, sessions: demo.sessions, intervalMs: DEMO_TEAM_MESSAGE_MS });
  const seats: { seat: SeatAddress; suggestedName: string; suggestedRole: string | null }[] = [
    ...demo.sessions.map((session) => ({
      seat: { harness: 'claude' as const, home: demo.claudeHome, sessionId: session.sessionId, cwd: session.cwd, path: session.path },
      suggestedName: session.suggestedName,
      suggestedRole: session.suggestedRole,
    })),
    ...others.seats,
  ];
  return {
    claudeHome: demo.claudeHome,
    codexHome: others.codexHome,
    openCodeDb: others.openCodeDb,
    backlogDir: demo.backlogDir,
    async seatPersonas(personas) {
      const existing = await personas.list();
      const seated = new Set(existing.flatMap((persona) => (persona.seat ? [persona.seat.sessionId] : [])));
      if (existing.length > 0 && seated.size > 0) return;
      for (const { seat, suggestedName, suggestedRole } of seats) {
        if (seated.has(seat.sessionId)) continue;
        await personas.hire({ name: suggestedName, role: suggestedRole, seat });
      }
    },
    async stop() {
      await team?.stop();
      await others.stop();
      await demo.stop();
    },
  };
}
