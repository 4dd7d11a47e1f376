/**
 * Version 1 of the Codex header index (one object per rollout, checked by a zod schema), read once to migrate it:
 * the index it holds is used as is, and the next discovery writes it in the current version.
 */
import { z } from 'zod';
import { CODEX_HEADER_INDEX_ENTRIES } from '../kit/bounds';
import type { CodexHeader } from './header';
import type { IndexedHeader, IndexRows } from './headerIndexRows';

/** A path under `sessions/` as version 1 wrote it (its own copy: this format is frozen). */
const RolloutPath = z.string().regex(/^\d{4}\/\d{2}\/\d{2}\/rollout-[^/\\]*\.jsonl$/);

/** A header field; absent in the file when the header has none (null). */
const Text = z.string().min(1).optional();
const Facts = { path: RolloutPath, size: z.number().int().nonnegative(), mtimeMs: z.number().finite() };
const HeaderEntrySchema = z.strictObject({
  ...Facts,
  kind: z.literal('header'),
  id: z.string().min(1),
  timestamp: Text,
  cwd: Text,
  forkedFromId: Text,
  origin: z.enum(['session', 'child', 'helper']),
  parentThreadId: Text,
  agentPath: Text,
  nickname: Text,
  role: Text,
});
const SkippedEntrySchema = z.strictObject({ ...Facts, kind: z.enum(['too-long', 'invalid']) });
const EntrySchema = z.discriminatedUnion('kind', [HeaderEntrySchema, SkippedEntrySchema]);

/** Version 1 of the index file. */
export const HeaderIndexV1Schema = z.strictObject({
  version: z.literal(1),
  /** The Codex home the paths are under; an index of another home is not used. */
  codexHome: z.string().min(1),
  rollouts: z.array(EntrySchema).max(CODEX_HEADER_INDEX_ENTRIES),
});

type Entry = z.infer<typeof EntrySchema>;

/** The rows of a version 1 index (parsed JSON whose `version` is 1), or why it cannot be used. */
export function decodeIndexV1(json: unknown): IndexRows {
  const parsed = HeaderIndexV1Schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { kind: 'invalid', where: issue.path.join('.'), what: issue.message };
  }
  const rollouts = parsed.data.rollouts;
  return { kind: 'rows', codexHome: parsed.data.codexHome, paths: rollouts.map((entry) => entry.path), entries: rollouts.map(entryOfV1) };
}

function entryOfV1(entry: Entry): IndexedHeader {
  if (entry.kind !== 'header') return { size: entry.size, mtimeMs: entry.mtimeMs, read: { kind: entry.kind, bytes: 0 } };
  const header: CodexHeader = {
    id: entry.id,
    timestamp: entry.timestamp ?? null,
    cwd: entry.cwd ?? null,
    forkedFromId: entry.forkedFromId ?? null,
    origin: entry.origin,
    parentThreadId: entry.parentThreadId ?? null,
    agentPath: entry.agentPath ?? null,
    nickname: entry.nickname ?? null,
    role: entry.role ?? null,
  };
  return { size: entry.size, mtimeMs: entry.mtimeMs, read: { kind: 'header', header, bytes: 0 } };
}
