/**
 * Compares Pixelfleet's whole-session Claude usage with another analyser's per-session JSON (issue 37), so the check
 * can be repeated on any set of journals. It opens every session under `<claude>/projects/*` as a seat in a throwaway
 * app home, reads `usage --json` through the real CLI, and prints per session its tokens and cost; given the other
 * tool's `session --json` output (a file), it prints each session's ratios too. It runs no other tool itself.
 *
 *   node main/edges/cli/run-ts.mjs main/dev/usageCompare.ts <claude config dir> [other.json]
 *   node main/edges/cli/run-ts.mjs main/dev/usageCompare.ts --demo <folder> [steps]   (writes the demo's journals)
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { UsageReportSchema } from '../../shared/usageReport';
import { main } from '../edges/cli/index';
import { startDemo } from './demo';

/** One session's figures as the other tool's `session --json` gives them (the fields read here). */
interface OtherSession {
  sessionId: string;
  inputTokens: number;
  outputTokens: number;
  cacheCreationTokens: number;
  cacheReadTokens: number;
  totalCost: number;
}

/** One session's figures as Pixelfleet counts them (the seat with all its subagents). */
interface OwnSession {
  sessionId: string;
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
  /** Null when a model of the session has no price. */
  cost: number | null;
  /** The session's models without a price. */
  unpriced: string[];
}

async function run(argv: string[], env: NodeJS.ProcessEnv): Promise<string> {
  let stdout = '';
  let stderr = '';
  const code = await main(argv, { stdout: (text) => (stdout += text), stderr: (text) => (stderr += text), env });
  if (code !== 0) throw new Error(`pixelfleet ${argv.join(' ')} exited ${code}: ${stderr}`);
  return stdout;
}

/** Session ids of the main journals (`<projects>/<folder>/<uuid>.jsonl`). */
async function sessionIds(claudeDir: string): Promise<string[]> {
  const projects = path.join(claudeDir, 'projects');
  const ids: string[] = [];
  for (const folder of await readdir(projects)) {
    const names = await readdir(path.join(projects, folder)).catch(() => [] as string[]);
    for (const name of names) if (/^[0-9a-f-]{36}\.jsonl$/.test(name)) ids.push(name.slice(0, -6));
  }
  return ids.sort();
}

/** Pixelfleet's per-session usage of every session under `claudeDir`. */
async function pixelfleetSessions(claudeDir: string): Promise<OwnSession[]> {
  const scratch = await mkdtemp(path.join(tmpdir(), 'pixelfleet-usage-compare-'));
  try {
    const env = { HOME: scratch, PIXELFLEET_HOME: path.join(scratch, 'app'), CLAUDE_CONFIG_DIR: claudeDir, CODEX_HOME: path.join(scratch, 'codex'), XDG_DATA_HOME: path.join(scratch, 'data') };
    const ids = await sessionIds(claudeDir);
    for (const [index, id] of ids.entries()) await run(['seats', 'open', `claude:${id}`, '--name', `Session ${index + 1}`], env);
    const report = UsageReportSchema.parse(JSON.parse(await run(['usage', '--json'], env)));
    return report.seats.map((row) => ({
      sessionId: row.seat.replace(/^claude:/, ''),
      input: row.totals.input,
      output: row.totals.output,
      cacheWrite: row.totals.cacheWrite,
      cacheRead: row.totals.cacheRead,
      cost: row.cost?.usd ?? null,
      unpriced: row.models.filter((model) => model.cost === null).map((model) => model.model),
    }));
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

/** The other tool's rows: `sessions[]` with `sessionId` (as its earlier output gave them) or `session[]` with `period`. */
function otherSessions(json: unknown): OtherSession[] {
  const report = json as { sessions?: Array<OtherSession & { period?: string }>; session?: Array<OtherSession & { period?: string }> };
  return (report.sessions ?? report.session ?? []).map((row) => ({ ...row, sessionId: row.sessionId ?? row.period ?? '' }));
}

/**
 * The owner of each flat agent file (`<projects>/<folder>/agent-<id>.jsonl`, Claude Code 2.0.24–2.1.1): the
 * `sessionId` its first line names. The other tool reports such a file as a session of its own (`agent-<id>`);
 * Pixelfleet counts it in its owner's "with subagents", so the two are compared summed.
 */
async function flatOwners(claudeDir: string): Promise<Map<string, string>> {
  const owners = new Map<string, string>();
  const projects = path.join(claudeDir, 'projects');
  for (const folder of await readdir(projects)) {
    const names = await readdir(path.join(projects, folder)).catch(() => [] as string[]);
    for (const name of names.filter((candidate) => /^agent-.+\.jsonl$/.test(candidate))) {
      const first = (await readFile(path.join(projects, folder, name), 'utf8')).split('\n')[0];
      try {
        const owner = (JSON.parse(first) as { sessionId?: unknown }).sessionId;
        if (typeof owner === 'string') owners.set(name.slice(0, -6), owner);
      } catch {
        // A first line that is not JSON names no owner: the file stays a session of its own.
      }
    }
  }
  return owners;
}

/** The other tool's rows with each flat agent file's row added into its owner's (when the owner is reported). */
function foldFlatAgents(rows: readonly OtherSession[], owners: ReadonlyMap<string, string>): OtherSession[] {
  const byId = new Map(rows.map((row) => [row.sessionId, { ...row }]));
  for (const [agent, owner] of owners) {
    const row = byId.get(agent);
    const into = byId.get(owner);
    if (!row || !into) continue;
    into.inputTokens += row.inputTokens;
    into.outputTokens += row.outputTokens;
    into.cacheCreationTokens += row.cacheCreationTokens;
    into.cacheReadTokens += row.cacheReadTokens;
    into.totalCost += row.totalCost;
    into.sessionId = owner;
    byId.delete(agent);
  }
  return [...byId.values()];
}

const tokens = (session: { input: number; output: number; cacheWrite: number; cacheRead: number }) => session.input + session.output + session.cacheWrite + session.cacheRead;

/** Rows of the comparison: per session both tools' tokens and cost and their ratios (Pixelfleet / other). */
function compare(own: readonly OwnSession[], other: readonly OtherSession[]): string[] {
  const lines = ['session                               tokens (pf / other, ratio, exact)          cost (pf / other, ratio)'];
  for (const session of own) {
    const theirs = other.find((candidate) => candidate.sessionId === session.sessionId);
    if (!theirs) {
      lines.push(`${session.sessionId}  ${tokens(session)} / (not in the other report)`);
      continue;
    }
    const mine = tokens(session);
    const their = theirs.inputTokens + theirs.outputTokens + theirs.cacheCreationTokens + theirs.cacheReadTokens;
    const exact = session.input === theirs.inputTokens && session.output === theirs.outputTokens && session.cacheWrite === theirs.cacheCreationTokens && session.cacheRead === theirs.cacheReadTokens;
    const cost = session.cost === null ? `— (unpriced: ${session.unpriced.join(', ')}) / ${theirs.totalCost.toFixed(6)}` : `${session.cost.toFixed(6)} / ${theirs.totalCost.toFixed(6)}, ${(session.cost / theirs.totalCost).toFixed(4)}`;
    lines.push(`${session.sessionId}  ${mine} / ${their}, ${(mine / their).toFixed(4)}, ${exact ? 'exact' : 'DIFFERS'}   ${cost}`);
  }
  return lines;
}

async function cli(argv: string[]): Promise<void> {
  if (argv[0] === '--demo') {
    // The demo's journals, written without timers: `steps` steps of every session after its warm-up.
    const folder = path.resolve(argv[1] ?? 'demo-journals');
    const demo = await startDemo({ home: folder, agents: 12, seed: 7, speed: 0 });
    for (let step = 0; step < Number(argv[2] ?? 200); step += 1) await demo.step();
    await demo.stop();
    console.log(demo.claudeHome);
    return;
  }
  const [claudeDir, otherFile] = argv;
  if (!claudeDir) throw new Error('usage: usageCompare.ts <claude config dir> [other.json] | --demo <folder> [steps]');
  const own = await pixelfleetSessions(path.resolve(claudeDir));
  if (!otherFile) {
    console.log(JSON.stringify(own, null, 2));
    return;
  }
  const other = foldFlatAgents(otherSessions(JSON.parse(await readFile(otherFile, 'utf8'))), await flatOwners(path.resolve(claudeDir)));
  for (const line of compare(own, other)) console.log(line);
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  cli(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  });
}
