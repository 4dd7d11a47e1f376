/**
 * Markdown backend: every `*.md` file directly inside one folder (not its subfolders), each read only up to
 * its first 64 KiB. A file with malformed front matter is reported and skipped; the others still list.
 */
import { open, readdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { WorkItem } from '../../shared/schemas';
import type { MarkdownSourceConfig } from '../settings/settingsSchema';
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
      try {
        const entries = await readdir(folder, { withFileTypes: true });
        names = entries
          .filter((entry) => (entry.isFile() || entry.isSymbolicLink()) && /\.md$/i.test(entry.name) && !entry.name.startsWith('.'))
          .map((entry) => entry.name)
          .sort();
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
        let head: { text: string; truncated: boolean };
        try {
          head = await readHead(file, MARKDOWN_HEAD_BYTES);
        } catch (error) {
          // A link to a folder or a file removed since the listing is not a work item; anything else is told.
          const code = errorCode(error);
          if (code !== 'ENOENT' && code !== 'EISDIR') problems.push(`Markdown: ${name} could not be read (${code ?? 'unknown error'}).`);
          continue;
        }
        const parsed = parseMarkdownItem(name, head.text, pathToFileURL(file).href, head.truncated);
        if (parsed.ok) items.push(parsed.item);
        else problems.push(parsed.problem);
      }
      return { items, problems };
    },
  };
}

/** Reads at most `limit` bytes from the start of a file. */
async function readHead(file: string, limit: number): Promise<{ text: string; truncated: boolean }> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(limit + 1);
    let length = 0;
    while (length < buffer.length) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    const truncated = length > limit;
    return { text: buffer.subarray(0, Math.min(length, limit)).toString('utf8'), truncated };
  } finally {
    await handle.close();
  }
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
