/**
 * The process table as adoption needs it: each process's parent, argument vector, start time and (asked one by one)
 * its working folder and open files. Read from /proc where there is one; elsewhere from `ps`, without folders or files
 * (adoption then relies on argv and the harnesses' own records).
 */
import { readdir, readFile, readlink } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { runProgram } from '../launch/tmux';

/** One process. */
export interface ProcessInfo {
  pid: number;
  ppid: number;
  argv: string[];
  /** When it started (ms since the epoch), or null when unknown. */
  startedAt: number | null;
}

/** The table and the lazy questions about one process. */
export interface ProcessTable {
  byPid: Map<number, ProcessInfo>;
  children: Map<number, number[]>;
  cwd(pid: number): Promise<string | null>;
  openFiles(pid: number): Promise<string[]>;
}

/** Clock ticks per second of /proc/<pid>/stat's start time (Linux's USER_HZ is 100 on every common build). */
const CLOCK_TICKS = 100;

async function bootTimeMs(): Promise<number | null> {
  const stat = await readFile('/proc/stat', 'utf8').catch(() => '');
  const match = /^btime (\d+)$/m.exec(stat);
  return match ? Number(match[1]) * 1000 : null;
}

async function fromProc(): Promise<Map<number, ProcessInfo>> {
  const boot = await bootTimeMs();
  const table = new Map<number, ProcessInfo>();
  const entries = await readdir('/proc').catch(() => [] as string[]);
  await Promise.all(
    entries
      .filter((name) => /^\d+$/.test(name))
      .map(async (name) => {
        const pid = Number(name);
        const [stat, cmdline] = await Promise.all([readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null), readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => null)]);
        if (stat === null || cmdline === null) return;
        // The command name sits in parentheses and may hold spaces: fields are counted after its closing one.
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        const ppid = Number(fields[1]);
        const ticks = Number(fields[19]);
        const argv = cmdline.split('\0');
        if (argv[argv.length - 1] === '') argv.pop();
        table.set(pid, { pid, ppid, argv, startedAt: boot !== null && Number.isFinite(ticks) ? boot + (ticks * 1000) / CLOCK_TICKS : null });
      }),
  );
  return table;
}

async function fromPs(env: NodeJS.ProcessEnv): Promise<Map<number, ProcessInfo>> {
  const table = new Map<number, ProcessInfo>();
  const listed = await runProgram('ps', ['-A', '-ww', '-o', 'pid=,ppid=,args='], env, 10_000);
  if (!listed.ok) return table;
  for (const row of listed.stdout.split('\n')) {
    const match = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(row);
    // `ps` joins the vector with spaces: good enough to find a harness and its flags, never used to run anything.
    if (match) table.set(Number(match[1]), { pid: Number(match[1]), ppid: Number(match[2]), argv: match[3].split(' '), startedAt: null });
  }
  return table;
}

/** Reads the process table once. */
export async function readProcessTable(env: NodeJS.ProcessEnv): Promise<ProcessTable> {
  const hasProc = existsSync('/proc/self/stat');
  const byPid = hasProc ? await fromProc() : await fromPs(env);
  const children = new Map<number, number[]>();
  for (const info of byPid.values()) {
    const list = children.get(info.ppid) ?? [];
    list.push(info.pid);
    children.set(info.ppid, list);
  }
  return {
    byPid,
    children,
    cwd: async (pid) => (hasProc ? readlink(`/proc/${pid}/cwd`).catch(() => null) : null),
    async openFiles(pid) {
      if (!hasProc) return [];
      const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
      const links = await Promise.all(fds.map((fd) => readlink(`/proc/${pid}/fd/${fd}`).catch(() => null)));
      return links.filter((link): link is string => link !== null && link.startsWith('/'));
    },
  };
}

/** A process and every descendant, parents first. */
export function processTree(table: ProcessTable, root: number): ProcessInfo[] {
  const out: ProcessInfo[] = [];
  const queue = [root];
  const seen = new Set<number>();
  while (queue.length > 0) {
    const pid = queue.shift()!;
    if (seen.has(pid)) continue;
    seen.add(pid);
    const info = table.byPid.get(pid);
    if (info) out.push(info);
    queue.push(...(table.children.get(pid) ?? []));
  }
  return out;
}

/** The basenames a harness's process runs as: its own executable, or a script of that name run by an interpreter. */
const EXECUTABLES: Record<string, RegExp> = {
  claude: /^(claude)$/,
  codex: /^(codex|codex\.js)$/,
  opencode: /^(\.?opencode)$/,
};

/** Interpreters a harness's script may run under. */
const INTERPRETERS = /^(node|nodejs|bun|deno)$/;

/** Which harness a process runs (by its executable or the script its interpreter runs), or null. */
export function harnessOf(info: ProcessInfo): 'claude' | 'codex' | 'opencode' | null {
  // The script an interpreter runs counts; another program's argument (`vim claude`) does not.
  const interpreted = INTERPRETERS.test(path.basename(info.argv[0] ?? ''));
  const candidates = [info.argv[0], interpreted ? info.argv[1] : undefined].filter((word): word is string => typeof word === 'string' && word !== '');
  for (const word of candidates) {
    const base = path.basename(word);
    for (const [harness, pattern] of Object.entries(EXECUTABLES)) if (pattern.test(base)) return harness as 'claude' | 'codex' | 'opencode';
    // Claude Code installed from npm runs as `node …/@anthropic-ai/claude-code/cli.js`.
    if (/claude-code[\\/]cli\.m?js$/.test(word)) return 'claude';
  }
  return null;
}
