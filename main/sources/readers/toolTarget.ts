/**
 * The files a tool call acts on, from its recorded input (pure, shared by every harness's replay): read, edit, write
 * and search tools name a path field; a patch names its files in its headers. Paths only — never the file content,
 * never the patch body. Unknown tools and shell commands give none (a command line is not a reliable path).
 */
import { TOOL_TARGET_PATH_MAX, type ReplayEntry, type ToolTarget } from '../../../shared/schemas';
import { TARGETS_PER_CALL } from './kit/bounds';
import { isObject, parseJson } from './kit/json';


type Action = ToolTarget['action'];

/** What each tool does with its path, by lowercase tool name across Claude Code, Codex and OpenCode. */
const TOOL_ACTIONS: Readonly<Record<string, Action>> = {
  read: 'read',
  read_file: 'read',
  view_image: 'read',
  notebookread: 'read',
  edit: 'edit',
  multiedit: 'edit',
  notebookedit: 'edit',
  write: 'write',
  write_file: 'write',
  grep: 'search',
  glob: 'search',
  ls: 'search',
  list: 'search',
  list_dir: 'search',
  grep_files: 'search',
};

/** Tools whose input is a patch (its headers name the files). */
const PATCH_TOOLS = new Set(['apply_patch', 'patch']);

/** Fields that hold the path, most specific first. */
const PATH_FIELDS = ['file_path', 'filePath', 'notebook_path', 'path', 'dir_path'];

/** Patch headers that name a file: `*** Update File: src/a.ts`, `*** Move to: src/b.ts`. */
const PATCH_HEADER = /^\*\*\* (Add File|Update File|Delete File|Move to): (.+)$/gm;

/** The files a call of `tool` with `input` acts on (input as recorded: an object, JSON text, or patch text). */
export function toolTargets(tool: string, input: unknown): ToolTarget[] {
  const name = tool.toLowerCase();
  // Text that does not parse as JSON stays text, as recorded.
  const value = typeof input === 'string' && input.trimStart().startsWith('{') ? (parseJson(input) ?? input) : input;
  if (PATCH_TOOLS.has(name)) return patchTargets(patchText(value));
  const action = TOOL_ACTIONS[name];
  if (!action || !isObject(value)) return [];
  for (const field of PATH_FIELDS) {
    const path = cleanPath(value[field]);
    if (path !== null) return [{ path, action }];
  }
  return [];
}

/** A tool-call entry with the files its input names (unchanged when it names none, so other entries keep their shape). */
export function withTargets(entry: ReplayEntry, input: unknown): ReplayEntry {
  const targets = entry.tool ? toolTargets(entry.tool, input) : [];
  return targets.length > 0 ? { ...entry, targets } : entry;
}

/** The patch text of a patch tool's input: the raw text (Codex's freeform call) or its `input`/`patchText` field. */
function patchText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!isObject(value)) return '';
  const text = value.input ?? value.patchText ?? value.patch;
  return typeof text === 'string' ? text : '';
}

function patchTargets(text: string): ToolTarget[] {
  const targets: ToolTarget[] = [];
  const seen = new Set<string>();
  for (const match of text.matchAll(PATCH_HEADER)) {
    const path = cleanPath(match[2]);
    if (path === null || seen.has(path)) continue;
    seen.add(path);
    targets.push({ path, action: match[1] === 'Add File' ? 'write' : 'edit' });
    if (targets.length === TARGETS_PER_CALL) break;
  }
  return targets;
}

/** A usable path: one line, not empty, within the bound (a longer one is dropped rather than cut into another path). */
function cleanPath(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const path = value.trim();
  if (path === '' || path.length > TOOL_TARGET_PATH_MAX || /[\r\n\0]/.test(path)) return null;
  return path;
}

