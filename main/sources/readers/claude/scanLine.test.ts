// The background pass's scan reads the same usage facts as a full parse, line for line.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeJournalForBench } from '../../../dev/demo/benchJournal';
import { isObject } from '../kit/json';
import { usageFacts } from './usageFold';
import { scanUsageLine } from './scanLine';

async function jsonlFiles(folder: string): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && entry.name.endsWith('.jsonl')) found.push(path.join(entry.parentPath, entry.name));
  }
  return found;
}

function expectSameFacts(line: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    expect(scanUsageLine(line)).toBeNull();
    return false;
  }
  if (!isObject(parsed)) return false;
  expect(scanUsageLine(line), line.slice(0, 120)).toEqual(usageFacts(parsed));
  return true;
}

describe('scanUsageLine', () => {
  it('gives the facts of a full parse for every line of the Claude fixtures and a generated journal', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'pixelfleet-scan-'));
    try {
      const generated = path.join(dir, 'bench.jsonl');
      await writeJournalForBench({ path: generated, bytes: 2 * 1024 * 1024 });
      const files = [...(await jsonlFiles(path.join(import.meta.dirname, 'fixtures'))), generated];
      let checked = 0;
      for (const file of files) {
        for (const line of (await readFile(file, 'utf8')).split('\n')) if (line.trim() && expectSameFacts(line)) checked += 1;
      }
      expect(checked).toBeGreaterThan(1_000);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('reads escaped strings, nested look-alikes and odd usage values as a parse does, and refuses broken lines', () => {
    const lines = [
      '{"type":"progress","data":{"message":{"type":"assistant","message":{"id":"m","usage":{"input_tokens":5,"output_tokens":1}}}}}',
      '{"type":"assistant","message":{"id":"m\\"1","model":"claude-\\u0073onnet-4-5","content":[{"type":"text","text":"\\"usage\\":{\\"input_tokens\\":9}"}],"usage":null},"requestId":"r","isSidechain":true}',
      '{ "type" : "assistant" , "message" : { "usage" : { "input_tokens" : 1 , "output_tokens" : 2 , "server_tool_use" : { "web" : 0 } } , "id" : "x" } , "timestamp" : "2026-05-01T09:00:00Z" }',
      '{"type":"assistant","message":{"id":"m","usage":"12"}}',
      '{"type":"assistant","message":{"id":"m","usage":[1,2]}}',
    ];
    for (const line of lines) expect(expectSameFacts(line)).toBe(true);
    for (const broken of ['{"type":"assistant","message":{"id":"m"', '{"type":"assistant"} trailing', '[1,2]', '']) expect(scanUsageLine(broken)).toBeNull();
  });
});
