import { describe, expect, it } from 'vitest';
import { decodeAliasFile, emptyAliasFile, encodeAliasFile, issueAliases, salvageCounters, slugType, type AliasFile } from './aliasRules';

const ask = (...keys: string[]) => keys.map((key) => ({ key, type: 'Explore' }));

describe('rule A1: aliases are <type slug>-<n> from a per-type counter', () => {
  it('slugs the recorded type', () => {
    expect(slugType('Explore')).toBe('explore');
    expect(slugType('general-purpose')).toBe('general-purpose');
    expect(slugType('  Code Reviewer!! ')).toBe('code-reviewer');
    expect(slugType(null)).toBe('subagent');
    expect(slugType('***')).toBe('subagent');
  });

  it('counts each type on its own', () => {
    const { aliases } = issueAliases(emptyAliasFile(), [
      { key: 'a', type: 'Explore' },
      { key: 'b', type: 'general-purpose' },
      { key: 'c', type: 'Explore' },
    ]);
    expect([...aliases.values()]).toEqual(['explore-1', 'general-purpose-1', 'explore-2']);
  });
});

describe('rule A2: an alias is stable for its subagent', () => {
  it('keeps an issued alias and writes nothing when nothing is new', () => {
    const first = issueAliases(emptyAliasFile(), ask('a', 'b'));
    const again = issueAliases(first.next!, ask('b', 'a'));
    expect(again.next).toBeNull();
    expect(again.aliases.get('a')).toBe('explore-1');
    expect(again.aliases.get('b')).toBe('explore-2');
  });
});

describe('rule A3: trimming the map never lowers a counter', () => {
  it('reproduces the review bug: exp-1..3, trim exp-1, the next launch gets exp-4, not exp-3 again', () => {
    let file: AliasFile = emptyAliasFile();
    for (const key of ['j1', 'j2', 'j3']) file = issueAliases(file, ask(key), 3).next!;
    expect(file.aliases.map(([, alias]) => alias)).toEqual(['explore-1', 'explore-2', 'explore-3']);
    const next = issueAliases(file, ask('j4'), 3);
    expect(next.aliases.get('j4')).toBe('explore-4');
    // The oldest entry was trimmed to keep the bound, yet its number is not handed out again.
    expect(next.next!.aliases.map(([key]) => key)).toEqual(['j2', 'j3', 'j4']);
    expect(next.next!.counters.explore).toBe(4);
    const later = issueAliases(next.next!, ask('j5', 'j1'), 3);
    expect(later.aliases.get('j5')).toBe('explore-5');
    // A trimmed subagent seen again gets a new alias, never a number issued before.
    expect(later.aliases.get('j1')).toBe('explore-6');
  });

  it('never trims an entry requested in the same call', () => {
    let file = emptyAliasFile();
    file = issueAliases(file, ask('old'), 2).next!;
    const result = issueAliases(file, ask('old', 'x', 'y'), 2);
    expect(result.next!.aliases.map(([key]) => key)).toEqual(['old', 'x', 'y']);
  });

  it('survives a restart: the file round-trips with its counters', () => {
    let file: AliasFile = emptyAliasFile();
    for (const key of ['j1', 'j2', 'j3', 'j4']) file = issueAliases(file, ask(key), 2).next!;
    const decoded = decodeAliasFile(encodeAliasFile(file));
    if (decoded.kind !== 'ok') throw new Error(decoded.kind);
    expect(decoded.file).toEqual(file);
    expect(issueAliases(decoded.file, ask('j5'), 2).aliases.get('j5')).toBe('explore-5');
  });
});

describe('rule A4: an unreadable file keeps its counters', () => {
  it('salvages the highest number per slug from counters and aliases of a half-written file', () => {
    const text = '{"schemaVersion":1,"revision":9,"counters":{"explore":7,"plan":2},"aliases":[["k","plan-5"],["m","general-purpose-3"],["n","expl';
    expect(decodeAliasFile(text).kind).toBe('corrupt');
    expect(salvageCounters(text)).toEqual({ explore: 7, plan: 5, 'general-purpose': 3 });
  });

  it('refuses a newer version instead of overwriting it', () => {
    expect(decodeAliasFile('{"schemaVersion":2}')).toEqual({ kind: 'newer', version: 2 });
  });
});
