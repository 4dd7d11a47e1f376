/**
 * The git a dispatch runs: every call an argument vector through execFile (never a shell), with a timeout, in a
 * given folder. Failures are values carrying git's own first line.
 */
import { execFile } from 'node:child_process';

/** Milliseconds one git call may take. */
const GIT_TIMEOUT_MS = 30_000;

/** A git call's outcome. */
type GitResult = { ok: true; stdout: string } | { ok: false; reason: string };

/** Runs `git <args>` in `cwd`; the prompts git could ask (credentials, editors) are off. */
function runGit(args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<GitResult> {
  return new Promise((resolve) => {
    execFile('git', args, { cwd, env: { ...env, GIT_TERMINAL_PROMPT: '0', GIT_EDITOR: 'true' }, timeout: GIT_TIMEOUT_MS, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (!error) return resolve({ ok: true, stdout });
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') return resolve({ ok: false, reason: 'git is not on PATH (install it with `sudo apt-get install git`).' });
      const first = (stderr || error.message).trim().split('\n').find((line) => line.trim() !== '') ?? 'git failed';
      resolve({ ok: false, reason: first.replace(/^(fatal|error): /, '') });
    });
  });
}

/** The top folder of the repository holding `cwd`, or why there is none. */
export async function repositoryRoot(cwd: string, env: NodeJS.ProcessEnv): Promise<{ ok: true; root: string } | { ok: false; reason: string }> {
  const found = await runGit(['rev-parse', '--show-toplevel'], cwd, env);
  if (!found.ok) return { ok: false, reason: `${cwd} is not inside a git repository (${found.reason}).` };
  return { ok: true, root: found.stdout.trim() };
}

/** True when the local branch exists in the repository of `cwd`. */
export async function branchExists(branch: string, cwd: string, env: NodeJS.ProcessEnv): Promise<boolean> {
  return (await runGit(['show-ref', '--verify', '--quiet', `refs/heads/${branch}`], cwd, env)).ok;
}

/** `git worktree add -b <branch> <folder> HEAD`, run in `cwd` (so HEAD is that folder's current commit). */
export function addWorktree(branch: string, folder: string, cwd: string, env: NodeJS.ProcessEnv): Promise<GitResult> {
  return runGit(['worktree', 'add', '-b', branch, '--', folder, 'HEAD'], cwd, env);
}

/** Removes a worktree this dispatch created, and its branch when it still points where it was made (a rollback). */
export async function rollbackWorktree(branch: string, folder: string, cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  await runGit(['worktree', 'remove', '--force', '--', folder], cwd, env);
  await runGit(['branch', '-D', branch], cwd, env);
}

/** How many entries `git status --porcelain` lists in a worktree, or null when git could not tell. */
export async function changedFileCount(worktree: string, env: NodeJS.ProcessEnv): Promise<number | null> {
  const status = await runGit(['status', '--porcelain'], worktree, env);
  if (!status.ok) return null;
  return status.stdout.split('\n').filter((line) => line.trim() !== '').length;
}

/** Removes a clean worktree (`git worktree remove` without --force, so git itself refuses a dirty one too). */
export function removeWorktree(folder: string, cwd: string, env: NodeJS.ProcessEnv): Promise<GitResult> {
  return runGit(['worktree', 'remove', '--', folder], cwd, env);
}
