/** Sets up the demo fleet inside an app home: simulated Claude sessions, a Markdown backlog, and their personas. */
import { join } from 'node:path';
import { startDemo } from './index';
import { startDemoTeam } from './team';
import type { PersonaPort } from '../fleet/ports';

/** How often the demo team sends a message, in milliseconds. */
export const DEMO_TEAM_MESSAGE_MS = 4000;

/** The running demo, as the app sees it. */
export interface DemoHandle {
  claudeHome: string;
  backlogDir: string;
  /** Gives every simulated session a persona holding its seat (once; a restart keeps the owner's changes). */
  seatPersonas(personas: PersonaPort): Promise<void>;
  stop(): Promise<void>;
}

/** Starts the simulator in `<home>/demo`. The same seed gives the same sessions, so a restart continues them. */
export async function prepareDemo(options: { home: string; agents: number }): Promise<DemoHandle> {
  const demo = await startDemo({ home: join(options.home, 'demo'), agents: options.agents, seed: 7 });
  // A small team among the first sessions, so messages walk between agents of the demo.
  const team = await startDemoTeam({ claudeHome: demo.claudeHome, sessions: demo.sessions, intervalMs: DEMO_TEAM_MESSAGE_MS });
  return {
    claudeHome: demo.claudeHome,
    backlogDir: demo.backlogDir,
    async seatPersonas(personas) {
      const existing = await personas.list();
      const seated = new Set(existing.flatMap((persona) => (persona.seat ? [persona.seat.sessionId] : [])));
      if (existing.length > 0 && seated.size > 0) return;
      for (const session of demo.sessions) {
        if (seated.has(session.sessionId)) continue;
        await personas.hire({
          name: session.suggestedName,
          role: session.suggestedRole,
          seat: { harness: 'claude', home: demo.claudeHome, sessionId: session.sessionId, cwd: session.cwd, path: session.path },
        });
      }
    },
    async stop() {
      await team?.stop();
      await demo.stop();
    },
  };
}
