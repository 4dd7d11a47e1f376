/**
 * Finding the one item a dispatch names and building its prompt. A Markdown item's body is read from its file only when
 * the file lies directly inside a configured Markdown folder (its link never selects a file elsewhere), at most 256 KiB.
 */
import { open, realpath } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { shownValue } from '../../../shared/bounds';
import type { WorkItem } from '../../../shared/schemas';
import { ServiceError } from '../../kit/errors';
import { itemPrompt, markdownBody } from './dispatchRules';

/** Most bytes read of a Markdown item for its body. */
const BODY_READ_MAX_BYTES = 256 * 1024;

/** The item with this id (and source, when given); a not_found or ambiguous refusal otherwise. */
export function oneItem(found: readonly WorkItem[], itemId: string, source?: WorkItem['source']): WorkItem {
  const matches = found.filter((item) => item.id === itemId && (source === undefined || item.source === source));
  if (matches.length === 0) throw new ServiceError('not_found', `No work item has the id ${JSON.stringify(shownValue(itemId))} in the configured sources (see \`pixelfleet work-items --label <role>\`). Nothing was done.`);
  const sources = [...new Set(matches.map((item) => item.source))];
  if (sources.length > 1) throw new ServiceError('invalid_request', `Items of ${sources.join(' and ')} share the id ${JSON.stringify(shownValue(itemId))}; nothing was done.`);
  return matches[0];
}

/** The file of a Markdown item when it lies directly inside one of `folders`, else null. */
async function markdownFile(item: WorkItem, folders: readonly string[]): Promise<string | null> {
  if (item.source !== 'markdown' || !item.url.startsWith('file:')) return null;
  let file: string;
  try {
    file = await realpath(fileURLToPath(item.url));
  } catch {
    return null;
  }
  for (const folder of folders) {
    const real = await realpath(folder).catch(() => null);
    if (real && path.dirname(file) === real && path.basename(file) === item.id) return file;
  }
  return null;
}

async function readHead(file: string): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(BODY_READ_MAX_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, BODY_READ_MAX_BYTES, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}

/** The prompt of an item: title, link, and a Markdown item's body (dispatchRules rule 2). */
export async function promptOf(item: WorkItem, markdownFolders: readonly string[]): Promise<string> {
  const file = await markdownFile(item, markdownFolders);
  if (!file) return itemPrompt(item);
  const text = await readHead(file).catch(() => '');
  return itemPrompt(item, { text: markdownBody(text), file });
}
