/**
 * Markdown backend: every `*.md` file directly inside one folder (not its subfolders), each read only up to
 * its first 64 KiB. A file with malformed front matter is reported and skipped; the others still list.
 * Only regular files whose real path stays inside the folder are read: a link that leads out of it, a FIFO or a
 * device is skipped and counted, never opened for a blocking read.
 */
import { constants } from 'node:fs';
import { open, readdir, realpath, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { WorkItem } from '../../../shared/schemas';
import type { MarkdownSourceConfig } from './workSettings';
import { parseMarkdownItem } from './markdownItem';
import { SourceFailure, type WorkSource } from './port';

/** Bytes read from the head of each file: front matter and the first heading sit at the top. */
export const MARKDOWN_HEAD_BYTES = 64 * 1024;
/** Files read at most per folder, so a mistaken folder (a whole notes vault) stays cheap. */
export const MARKDOWN_MAX_FILES = 2_000;

/** Builds the Markdown source for one folder (an absolute path). */
export function createMarkdownSource(config: MarkdownSourceConfig): WorkSource {
  const folder = config.dir;
  return {
    name: `Markdown ${folder}`,
    async list() {
      let names: string[];
      let inside: string;
      const skipped: string[] = [];
      try {
        inside = await realpath(folder);
        const entries = await readdir(folder, { withFileTypes: true });
        names = [];
        for (const entry of entries) {
          if (!/\.md$/i.test(entry.name) || entry.name.startsWith('.')) continue;
          if (entry.isFile() || entry.isSymbolicLink()) names.push(entry.name);
          else skipped.push(entry.name);
        }
        names.sort();
      } catch (error) {
        throw new SourceFailure(folderFailure(folder, error));
      }
      const items: WorkItem[] = [];
      const problems: string[] = [];
      if (names.length > MARKDOWN_MAX_FILES) {
        problems.push(`Markdown: ${folder} holds ${names.length} files; only the first ${MARKDOWN_MAX_FILES} are read.`);
        names = names.slice(0, MARKDOWN_MAX_FILES);
      }
      for (const name of names) {
        const file = path.join(folder, name);
        let head: { text: string; truncated: boolean } | 'not a file';
        try {
          head = await readInsideHead(file, inside, MARKDOWN_HEAD_BYTES);
        } catch (error) {
          // A file removed since the listing is not a work item; anything else is told.
          const code = errorCode(error);
          if (code !== 'ENOENT') problems.push(`Markdown: ${name} could not be read (${code ?? 'unknown error'}).`);
          continue;
        }
        if (head === 'not a file') {
          skipped.push(name);
          continue;
        }
        const parsed = parseMarkdownItem(name, head.text, pathToFileURL(file).href, head.truncated);
        if (parsed.ok) items.push(parsed.item);
        else problems.push(parsed.problem);
      }
      if (skipped.length > 0) problems.push(skippedSentence(folder, skipped.sort()));
      return { items, problems };
    },
  };
}

/** Names shown at most in the skipped-entries sentence. */
const SKIPPED_NAMES_SHOWN = 5;

/** The source's status line for entries that are not regular files inside the folder. */
export function skippedSentence(folder: string, names: string[]): string {
  const shown = names.slice(0, SKIPPED_NAMES_SHOWN).join(', ');
  const more = names.length > SKIPPED_NAMES_SHOWN ? ` and ${names.length - SKIPPED_NAMES_SHOWN} more` : '';
  const count = names.length === 1 ? '1 entry' : `${names.length} entries`;
  return `Markdown: skipped ${count} in ${folder} that ${names.length === 1 ? 'is' : 'are'} not a regular file inside the folder (${shown}${more}).`;
}

/**
 * Reads the head of `file` when its real path stays inside `inside` and the opened handle is a regular file;
 * 'not a file' otherwise. Opened without following a last link and without blocking, so a FIFO cannot hang it.
 */
async function readInsideHead(file: string, inside: string, limit: number): Promise<{ text: string; truncated: boolean } | 'not a file'> {
  const real = await realpath(file);
  if (!real.startsWith(inside + path.sep)) return 'not a file';
  const handle = await open(real, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0) | (constants.O_NOFOLLOW ?? 0));
  try {
    if (!(await handle.stat()).isFile()) return 'not a file';
    return await readHead(handle, limit);
  } finally {
    await handle.close();
  }
}

/** Reads at most `limit` bytes from the start of an open file. */
async function readHead(handle: FileHandle, limit: number): Promise<{ text: string; truncated: boolean }> {
  const buffer = Buffer.alloc(limit + 1);
  let length = 0;
  while (length < buffer.length) {
    const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
    if (bytesRead === 0) break;
    length += bytesRead;
  }
  const truncated = length > limit;
  return { text: buffer.subarray(0, Math.min(length, limit)).toString('utf8'), truncated };
}

function folderFailure(folder: string, error: unknown): string {
  switch (errorCode(error)) {
    case 'ENOENT':
      return `Markdown: folder ${folder} not found; check workSources in settings.json.`;
    case 'ENOTDIR':
      return `Markdown: ${folder} is not a folder; check workSources in settings.json.`;
    case 'EACCES':
    case 'EPERM':
      return `Markdown: no permission to read ${folder}.`;
    default:
      return `Markdown: ${folder} could not be read (${errorCode(error) ?? 'unknown error'}).`;
  }
}

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;
}
