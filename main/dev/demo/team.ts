/**
 * The demo's small agent team: the first simulated session leads it and the next two are teammates with their own
 * sessions (as tmux-backend teammates are), written in the documented team-file shape under
 * `<claude home>/teams/demo-crew/`. A message (with a summary) is added to an inbox every few seconds, so envelopes
 * walk between agents of the demo. Inboxes are rewritten whole and atomically, as Claude Code rewrites them.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { DemoSession } from './simulator';

/** The demo team's name (its folder under `teams/`). */
export const DEMO_TEAM = 'demo-crew';
/** Messages kept per demo inbox. */
const INBOX_KEEP = 30;

const SUMMARIES = [
  'pick up the flaky parser test',
  'parser test fixed, two cases added',
  'look over the new toolbar spacing',
  'toolbar reviewed: one nit on focus ring',
  'can you rerun the e2e on your branch',
  'e2e green on my branch',
] as const;

/** A running demo team. */
export interface DemoTeam {
  /** Adds the next message at once (tests) and waits for it to be written. */
  send(): Promise<void>;
  stop(): Promise<void>;
}

function memberName(session: DemoSession): string {
  return session.suggestedName.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}

async function writeJson(file: string, value: unknown): Promise<void> {
  const temp = `${file}.tmp-${process.pid}`;
  await fs.writeFile(temp, `${JSON.stringify(value, null, 2)}\n`);
  await fs.rename(temp, file);
}

async function readInbox(file: string): Promise<unknown[]> {
  try {
    const data: unknown = JSON.parse(await fs.readFile(file, 'utf8'));
    return Array.isArray(data) ? data : [];
  } catch {
    return [];
  }
}

/** Writes the team file and starts the messages (every `intervalMs`; 0 = only `send()`). Needs two sessions or more. */
export async function startDemoTeam(options: { claudeHome: string; sessions: DemoSession[]; intervalMs: number; now?: () => number }): Promise<DemoTeam | null> {
  const [lead, ...others] = options.sessions;
  const mates = others.slice(0, 2);
  if (!lead || mates.length === 0) return null;
  const now = options.now ?? Date.now;
  const folder = path.join(options.claudeHome, 'teams', DEMO_TEAM);
  await fs.mkdir(path.join(folder, 'inboxes'), { recursive: true });
  const colours = ['blue', 'green', 'yellow'];
  await writeJson(path.join(folder, 'config.json'), {
    name: DEMO_TEAM,
    description: 'The demo fleet\'s small team',
    createdAt: now(),
    leadAgentId: `team-lead@${DEMO_TEAM}`,
    leadSessionId: lead.sessionId,
    members: [
      { agentId: `team-lead@${DEMO_TEAM}`, name: 'team-lead', agentType: 'team-lead', color: colours[0], joinedAt: now(), tmuxPaneId: '', cwd: lead.cwd, subscriptions: [] },
      ...mates.map((mate, index) => ({
        agentId: `${memberName(mate)}@${DEMO_TEAM}`,
        name: memberName(mate),
        color: colours[index + 1],
        joinedAt: now(),
        tmuxPaneId: `%${index + 1}`,
        cwd: mate.cwd,
        sessionId: mate.sessionId,
        backendType: 'tmux',
        subscriptions: [],
      })),
    ],
  });
  let turn = 0;
  let chain: Promise<void> = Promise.resolve();
  const send = () => {
    const mate = memberName(mates[Math.floor(turn / 2) % mates.length]);
    const toLead = turn % 2 === 1;
    const summary = SUMMARIES[turn % SUMMARIES.length];
    turn += 1;
    const [from, to] = toLead ? [mate, 'team-lead'] : ['team-lead', mate];
    const work = async () => {
      const file = path.join(folder, 'inboxes', `${to}.json`);
      const inbox = await readInbox(file);
      inbox.push({ from, text: `(demo) ${summary}.`, summary, timestamp: new Date(now()).toISOString(), read: false });
      await writeJson(file, inbox.slice(-INBOX_KEEP));
    };
    chain = chain.then(work, work);
    return chain;
  };
  const timer = options.intervalMs > 0 ? setInterval(() => void send().catch(() => undefined), options.intervalMs) : null;
  timer?.unref?.();
  return {
    send,
    async stop() {
      if (timer) clearInterval(timer);
      await chain.catch(() => undefined);
    },
  };
}
