import { describe, expect, it } from 'vitest';
import { BUILT_IN_ROLES, isBuiltInRole, parseRole, roleKey, rolesList, sameRole } from './roles';

function reasonOf(input: string): string {
  const result = parseRole(input);
  if (result.ok) throw new Error(`expected "${input}" to be refused, got ${result.role}`);
  return result.reason;
}

function roleOf(input: string): string {
  const result = parseRole(input);
  if (!result.ok) throw new Error(`expected "${input}" to parse: ${result.reason}`);
  return result.role;
}

describe('parseRole', () => {
  it('lists the built-ins in their fixed order', () => {
    expect(BUILT_IN_ROLES).toEqual(['planner', 'designer', 'builder', 'tester', 'reviewer', 'researcher']);
  });

  it('accepts 24 characters and refuses 25, counting them in the reason', () => {
    expect(roleOf('a'.repeat(24))).toBe('a'.repeat(24));
    expect(reasonOf('a'.repeat(25))).toBe('A role is at most 24 characters (this one has 25).');
  });

  it('counts length after trimming and collapsing whitespace', () => {
    expect(roleOf(`   ${'b'.repeat(11)}   \t  ${'c'.repeat(12)}  `)).toBe(`${'b'.repeat(11)} ${'c'.repeat(12)}`);
  });

  it('collapses tabs, newlines and runs of spaces to one space', () => {
    expect(roleOf('Sound\t\tDesigner')).toBe('Sound Designer');
    expect(roleOf('  Sound   \n Designer ')).toBe('Sound Designer');
  });

  it('refuses empty and whitespace-only input', () => {
    expect(reasonOf('')).toBe('A role needs at least one letter or digit.');
    expect(reasonOf(' \t ')).toBe('A role needs at least one letter or digit.');
  });

  it('refuses a leading hyphen or space-like start, and accepts inner and trailing hyphens', () => {
    expect(reasonOf('-builder')).toBe('A role starts with a letter or digit (this one starts with "-").');
    expect(roleOf('front-end')).toBe('front-end');
    expect(roleOf('2nd-line')).toBe('2nd-line');
    expect(roleOf('qa-')).toBe('qa-');
  });

  it('refuses punctuation, underscores and symbols, naming the character', () => {
    expect(reasonOf('dev_ops')).toBe('A role holds only letters, digits, spaces and hyphens (this one has "_").');
    expect(reasonOf('ops!')).toContain('"!"');
    expect(reasonOf('a/b')).toContain('"/"');
    expect(reasonOf('emoji 🎨')).toContain('"🎨"');
    expect(reasonOf('zero\u200bwidth')).toContain('U+200B');
  });

  it('counts Unicode letters and digits as letters and digits', () => {
    expect(roleOf('Diseñadora')).toBe('Diseñadora');
    expect(roleOf('Тестировщик')).toBe('Тестировщик');
    expect(roleOf('レビュー')).toBe('レビュー');
    expect(roleOf('परीक्षक')).toBe('परीक्षक');
    expect(roleOf('builder ٣')).toBe('builder ٣');
    // A combining mark cannot start a role.
    expect(reasonOf('\u0301abc')).toContain('starts with');
  });

  it('normalises to NFC so both spellings of an accent are one role', () => {
    expect(roleOf('Cafe\u0301')).toBe('Café');
    expect(roleKey('Cafe\u0301')).toBe(roleKey('café'));
  });

  it('folds a built-in in any casing to lowercase', () => {
    expect(roleOf('Builder')).toBe('builder');
    expect(roleOf(' RESEARCHER ')).toBe('researcher');
    for (const role of BUILT_IN_ROLES) expect(roleOf(role)).toBe(role);
  });

  it('keeps the casing of a custom role', () => {
    expect(roleOf('Sound Designer')).toBe('Sound Designer');
  });
});

describe('roleKey, sameRole and isBuiltInRole', () => {
  it('gives one key to custom roles that differ only in casing and spacing', () => {
    expect(roleKey('Sound Designer')).toBe(roleKey('sound  designer'));
    expect(sameRole('Sound Designer', 'SOUND DESIGNER')).toBe(true);
    expect(sameRole('Sound Designer', 'Sound-Designer')).toBe(false);
  });

  it('recognises built-ins in any casing only', () => {
    expect(isBuiltInRole('Tester')).toBe(true);
    expect(isBuiltInRole('tests')).toBe(false);
  });
});

describe('rolesList', () => {
  const at = (minute: number) => `2025-01-01T00:${String(minute).padStart(2, '0')}:00.000Z`;

  it('always lists the six built-ins first with zero counts', () => {
    expect(rolesList([])).toEqual(BUILT_IN_ROLES.map((role) => ({ role, builtIn: true, count: 0 })));
  });

  it('counts built-ins, ignores unassigned personas and folds built-in casing', () => {
    const list = rolesList([
      { role: 'builder', updatedAt: at(1) },
      { role: 'Builder', updatedAt: at(2) },
      { role: undefined, updatedAt: at(3) },
      { role: 'tester', updatedAt: at(4) },
    ]);
    expect(list.slice(0, 6).map((entry) => entry.count)).toEqual([0, 0, 2, 1, 0, 0]);
    expect(list).toHaveLength(6);
  });

  it('orders custom roles by count, then alphabetically by key', () => {
    const list = rolesList([
      { role: 'zeta', updatedAt: at(1) },
      { role: 'Alpha', updatedAt: at(2) },
      { role: 'mid', updatedAt: at(3) },
      { role: 'mid', updatedAt: at(4) },
      { role: 'beta', updatedAt: at(5) },
    ]);
    expect(list.slice(6)).toEqual([
      { role: 'mid', builtIn: false, count: 2 },
      { role: 'Alpha', builtIn: false, count: 1 },
      { role: 'beta', builtIn: false, count: 1 },
      { role: 'zeta', builtIn: false, count: 1 },
    ]);
  });

  it('labels a custom role with the casing of its most recently updated holder', () => {
    const holders = [
      { role: 'sound designer', updatedAt: at(5) },
      { role: 'Sound Designer', updatedAt: at(9) },
      { role: 'SOUND DESIGNER', updatedAt: at(7) },
    ];
    expect(rolesList(holders).slice(6)).toEqual([{ role: 'Sound Designer', builtIn: false, count: 3 }]);
    expect(rolesList([...holders].reverse()).slice(6)).toEqual([{ role: 'Sound Designer', builtIn: false, count: 3 }]);
  });
});
