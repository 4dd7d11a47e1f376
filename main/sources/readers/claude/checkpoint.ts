/**
 * The background pass's checkpoint in the app home (`usage-checkpoint.json`): per journal its identity, the offset
 * read to (always a line boundary, so no half line is ever kept), a fingerprint of the bytes before it, and the
 * running fold (tallies, hour buckets, the recent message keys that keep a message split across chunks counted
 * once, and what each message counted for the session's count-once rule U8). Written atomically; a corrupt file or one of another version is moved aside with one log line.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { USAGE_CHECKPOINT_KEYS, USAGE_CHECKPOINT_VERSION } from '../../../kit/usage/bounds';
import type { ClaudeUsageFold } from './usageFold';
import { MessageCopies } from './messageCopies';
import type { Tally } from '../../../kit/usage/tally';

const amount = z.object({
  input: z.number().nonnegative(),
  output: z.number().nonnegative(),
  cacheRead: z.number().nonnegative(),
  cacheWrite: z.number().nonnegative(),
  reasoning: z.number().nonnegative(),
  usd: z.number().nonnegative(),
  unpriced: z.number().int().nonnegative(),
});
const tally = z.object({
  costKind: z.enum(['estimated', 'recorded']),
  sum: amount,
  hasReasoning: z.boolean(),
  skipped: z.number().int().nonnegative(),
  hours: z.record(z.string().regex(/^\d+$/), amount),
  models: z.record(z.string(), amount),
  minutes: z.record(z.string().regex(/^\d+$/), z.tuple([z.number(), z.number(), z.number(), z.number(), z.number(), z.number(), z.number(), z.number(), z.number()])).optional(),
  modelHours: z.record(z.string(), z.record(z.string().regex(/^\d+$/), amount)).optional(),
});
/** A file's message copies (rule U8): base64 hashes and figures, and the model names (messageCopies.ts). */
const copies = z.object({ hashes: z.string(), data: z.string(), models: z.array(z.string().nullable()) });
const figures = z.object({ input: z.number(), output: z.number(), cacheRead: z.number(), cacheWrite: z.number(), reasoning: z.null(), cacheWrite1h: z.number().optional() });
const entry = z.object({
  path: z.string(),
  dev: z.number(),
  ino: z.number(),
  birthtimeMs: z.number().nullable(),
  offset: z.number().int().nonnegative(),
  fingerprint: z.string().regex(/^[0-9a-f]*$/),
  fold: z.object({
    main: tally,
    sidechain: tally,
    recent: z.array(z.tuple([z.string(), figures])),
    contextUsed: z.number().nullable(),
    model: z.string().nullable(),
    copies,
  }),
});
const checkpointSchema = z.object({ version: z.literal(USAGE_CHECKPOINT_VERSION), files: z.array(entry) });

/** One journal's checkpoint, as kept in memory. */
export interface CheckpointEntry {
  path: string;
  dev: number;
  ino: number;
  birthtimeMs: number | null;
  offset: number;
  /** Hex of the bytes just before `offset` (see FINGERPRINT_BYTES). */
  fingerprint: string;
  fold: ClaudeUsageFold;
}

/** The checkpoint file's name in the app home. */
export const CHECKPOINT_FILE = 'usage-checkpoint.json';

/** Loads the checkpoint; a missing file is empty, a corrupt or other-version file is moved aside (one log line). */
export async function loadCheckpoint(file: string, log: (message: string) => void): Promise<CheckpointEntry[]> {
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    log(`pixelfleet: the usage checkpoint ${file} could not be read (${(error as NodeJS.ErrnoException).code ?? String(error)}); totals are rebuilt.`);
    return [];
  }
  let parsed: z.infer<typeof checkpointSchema> | null = null;
  try {
    const result = checkpointSchema.safeParse(JSON.parse(text));
    if (result.success) parsed = result.data;
  } catch {
    parsed = null;
  }
  if (parsed === null) {
    const aside = `${file}.bad-${Date.now()}`;
    await fs.rename(file, aside).catch(() => undefined);
    log(`pixelfleet: the usage checkpoint was corrupt or of another version; moved aside to ${path.basename(aside)} and rebuilt.`);
    return [];
  }
  const entries: CheckpointEntry[] = [];
  for (const row of parsed.files) {
    const kept = MessageCopies.load(row.fold.copies);
    // Copies that do not hold together: that file is read again from its start (its figures are then rebuilt too).
    if (kept === null) continue;
    entries.push({ ...row, fold: { ...row.fold, main: row.fold.main as Tally, sidechain: row.fold.sidechain as Tally, recent: new Map(row.fold.recent), copies: kept } });
  }
  return entries;
}

/** Writes the checkpoint atomically (temp file in the same folder, then rename). */
export async function saveCheckpoint(file: string, entries: readonly CheckpointEntry[]): Promise<void> {
  // The newest message keys only: a message's repeated block lines are adjacent, so they suffice across a restart.
  const files = entries.map((entry) => ({ ...entry, fold: { ...entry.fold, recent: [...entry.fold.recent.entries()].slice(-USAGE_CHECKPOINT_KEYS), copies: entry.fold.copies.save() } }));
  const temp = `${file}.${process.pid}.tmp`;
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(temp, JSON.stringify({ version: USAGE_CHECKPOINT_VERSION, files }));
  await fs.rename(temp, file);
}
