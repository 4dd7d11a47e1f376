/**
 * Exporting a role profile into a harness's folder: the one place Pixelfleet writes outside its home, and only on
 * the owner's command. A file that Pixelfleet did not write, or that was edited since, is never replaced without
 * `force` (marker.ts); writes are atomic.
 */
import { promises as fs } from 'node:fs';
import { parseRole } from '../../../shared/roles';
import { readMarker, type MarkerState } from './marker';
import { loadProfile, writeTextAtomically } from './ProfileStore';
import { detectCodexFormat, type CodexFormat } from './codexFormat';
import { agentSlug, exportPath, renderAgent, type ExportHarness, type ExportScope } from './targets';

/** One export as the owner asked for it. */
export interface ExportRequest {
  home: string;
  role: string;
  harness: ExportHarness;
  scope: ExportScope;
  /** The project folder for project scope. */
  projectDir: string;
  dryRun: boolean;
  force: boolean;
  env: NodeJS.ProcessEnv;
  /** Decides the Codex format (tests may pass their own). */
  codexFormat?: (env: NodeJS.ProcessEnv) => Promise<CodexFormat>;
}

/** What is at the target path before the export. */
export type ExistingState = 'missing' | MarkerState['kind'];

/** The result of an export: written, unchanged, previewed, or refused with a reason and a code. */
export type ExportOutcome =
  | { ok: true; action: 'written' | 'unchanged' | 'preview'; path: string; name: string; text: string; existing: ExistingState }
  | { ok: false; code: 'invalid_role' | 'no_profile' | 'refused' | 'undetermined'; reason: string; path?: string };

async function existingState(file: string): Promise<{ state: ExistingState; text: string | null }> {
  try {
    const text = await fs.readFile(file, 'utf8');
    return { state: readMarker(text).kind, text };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { state: 'missing', text: null };
    throw error;
  }
}

/** Renders and (unless a dry run) writes one role's agent definition for one harness. */
export async function exportRole(request: ExportRequest): Promise<ExportOutcome> {
  const parsed = parseRole(request.role);
  if (!parsed.ok) return { ok: false, code: 'invalid_role', reason: parsed.reason };
  const role = parsed.role;
  const loaded = await loadProfile(request.home, role);
  if (loaded.problem) return { ok: false, code: 'no_profile', reason: `${loaded.problem} Fix it with \`pixelfleet roles edit ${role}\` first.` };
  if (!loaded.profile) {
    return { ok: false, code: 'no_profile', reason: `The role ${role} has no profile yet; write one with \`pixelfleet roles edit ${role}\`.` };
  }
  if (request.harness === 'codex') {
    const format = await (request.codexFormat ?? detectCodexFormat)(request.env);
    if (!format.ok) return { ok: false, code: 'undetermined', reason: format.reason };
  }
  const file = exportPath(request.harness, request.scope, role, request.projectDir, request.env);
  const text = renderAgent(request.harness, role, loaded.profile);
  const name = agentSlug(role);
  const existing = await existingState(file);
  if (request.dryRun) return { ok: true, action: 'preview', path: file, name, text, existing: existing.state };
  if ((existing.state === 'foreign' || existing.state === 'edited') && !request.force) {
    const why = existing.state === 'foreign' ? 'was not written by Pixelfleet' : 'was edited since Pixelfleet wrote it';
    return { ok: false, code: 'refused', path: file, reason: `${file} ${why}; it is left as it is. Export with --force to replace it.` };
  }
  if (existing.text === text) return { ok: true, action: 'unchanged', path: file, name, text, existing: existing.state };
  await writeTextAtomically(file, text);
  return { ok: true, action: 'written', path: file, name, text, existing: existing.state };
}

/** A Pixelfleet-written agent definition found for a role. */
export interface ExportedAgent {
  path: string;
  scope: ExportScope;
  /** The agent name to spawn it by. */
  name: string;
  /** True when the file was edited after Pixelfleet wrote it. */
  edited: boolean;
}

/**
 * Whether a Pixelfleet-written definition of the role exists for the harness: the project's first, then the user's.
 * A file without the marker is someone else's and does not count.
 */
export async function exportedAgentFor(role: string, harness: ExportHarness, projectDir: string, env: NodeJS.ProcessEnv = process.env): Promise<ExportedAgent | null> {
  for (const scope of ['project', 'user'] as const) {
    const file = exportPath(harness, scope, role, projectDir, env);
    const { state } = await existingState(file).catch(() => ({ state: 'missing' as ExistingState }));
    if (state === 'ours' || state === 'edited') return { path: file, scope, name: agentSlug(role), edited: state === 'edited' };
  }
  return null;
}
