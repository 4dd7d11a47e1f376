/**
 * An item's own git worktree: `<repo>/.pixelfleet/worktrees/<item-slug>` (or `<folder>/<item-slug>` when
 * settings.json names `worktreeDir`) on a new branch `pf/<item-slug>` from the given folder's current HEAD. Every
 * check runs before anything is made, so a refusal changes nothing.
 */
import { lstat, rm } from 'node:fs/promises';
import path from 'node:path';
import { ServiceError } from '../../kit/errors';
import { itemBranch, itemSlug } from './dispatchRules';
import { addWorktree, branchExists, repositoryRoot, rollbackWorktree } from './git';

/** A worktree made for a dispatch, and how to take it back if the dispatch fails after it. */
export interface MadeWorktree {
  repo: string;
  branch: string;
  folder: string;
  rollback(): Promise<void>;
}

/** Where the worktrees of a repository go: `worktreeDir` (relative to the repository root when relative) or the default. */
function worktreeParent(repo: string, worktreeDir: string | null): string {
  if (worktreeDir === null) return path.join(repo, '.pixelfleet', 'worktrees');
  return path.resolve(repo, worktreeDir);
}

/** Checks everything, then adds the worktree; refusals (ServiceError) change nothing. */
export async function makeWorktree(item: { id: string; title: string }, cwd: string, worktreeDir: string | null, env: NodeJS.ProcessEnv): Promise<MadeWorktree> {
  const root = await repositoryRoot(cwd, env);
  if (!root.ok) throw new ServiceError('invalid_request', `${root.reason} A worktree needs one; nothing was done.`);
  const branch = itemBranch(item);
  if (await branchExists(branch, cwd, env)) {
    throw new ServiceError('invalid_request', `The branch ${branch} already exists in ${root.root}; nothing was done. Delete it (git branch -D ${branch}) or dispatch without --worktree.`);
  }
  const folder = path.join(worktreeParent(root.root, worktreeDir), itemSlug(item));
  if (await lstat(folder).then(() => true, () => false)) {
    throw new ServiceError('invalid_request', `The folder ${folder} already exists; nothing was done. Remove it or dispatch without --worktree.`);
  }
  // The first folder on the way that git will make: a rollback removes it, so no empty `.pixelfleet/` stays behind.
  let made = folder;
  while (!(await lstat(path.dirname(made)).then(() => true, () => false))) made = path.dirname(made);
  const rollback = async () => {
    await rollbackWorktree(branch, folder, cwd, env);
    await rm(made, { recursive: true, force: true });
  };
  const added = await addWorktree(branch, folder, cwd, env);
  if (!added.ok) {
    // git may have left a half-made folder or branch behind; neither existed before.
    await rollback();
    throw new ServiceError('unavailable', `git could not add the worktree: ${added.reason}. Nothing was done.`);
  }
  return { repo: root.root, branch, folder, rollback };
}
