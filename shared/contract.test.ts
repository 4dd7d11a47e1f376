import { describe, expect, it } from 'vitest';
import { channelNames, channels, isChannel, parseEvent, parseRequest, parseResponse } from './contract';

describe('the contract', () => {
  it('names every channel the architecture lists', () => {
    for (const name of ['app.info', 'fleet.read', 'personas.setRole', 'roles.list', 'work.items', 'subagents.replay', 'seats.open', 'seats.close', 'agents.hire']) {
      expect(channelNames).toContain(name);
    }
    expect(isChannel('fleet.read')).toBe(true);
    expect(isChannel('toString')).toBe(false);
    expect(isChannel(undefined)).toBe(false);
  });

  it('refuses unknown keys in requests, naming them', () => {
    const result = parseRequest('personas.setRole', { personaId: 'p1', role: 'builder', extra: 1 });
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.code).toBe('invalid_request');
      expect(result.error.message).toContain('extra: unknown field');
    }
  });

  it('refuses wrong types, naming the field', () => {
    const result = parseRequest('subagents.replay', { seat: 's', nativeId: 7 });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.message).toMatch(/^subagents\.replay: nativeId: /);
  });

  it('bounds a launch request strictly: harness, role, folder, name and prompt', () => {
    const request = { harness: 'codex', role: 'tester', cwd: '/w/a b', name: `Ada "Q" $(x)`, prompt: `say 'hi'` };
    expect(parseRequest('agents.launch', request)).toEqual({ ok: true, value: request });
    expect(parseRequest('agents.launch', { ...request, shell: true })).toMatchObject({ ok: false, error: { message: 'agents.launch: shell: unknown field' } });
    expect(parseRequest('agents.launch', { ...request, harness: 'vim' })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/^agents\.launch: harness:/) } });
    expect(parseRequest('agents.launch', { ...request, cwd: '' })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/^agents\.launch: cwd:/) } });
    expect(parseRequest('agents.launch', { ...request, name: 'x'.repeat(49) })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/^agents\.launch: name:/) } });
    expect(parseRequest('agents.launch', { ...request, prompt: 'x'.repeat(20_001) })).toMatchObject({ ok: false, error: { message: expect.stringMatching(/^agents\.launch: prompt:/) } });
    expect(parseRequest('agents.launch', { ...request, role: 'r'.repeat(25) }).ok).toBe(false);
    expect(parseRequest('launch.options', { all: true }).ok).toBe(false);
    expect(parseRequest('agents.attach', { personaId: 'p_1' }).ok).toBe(true);
  });

  it('accepts a valid request and treats a missing payload as empty', () => {
    expect(parseRequest('personas.setRole', { personaId: 'p1', role: null }).ok).toBe(true);
    expect(parseRequest('roles.list', undefined).ok).toBe(true);
  });

  it('reads responses tolerantly: unknown fields dropped, known fields still checked', () => {
    const persona = {
      id: 'p1',
      name: 'Ada',
      appearance: { body: 0, hair: 1, palette: 2, accessory: 3, sparkle: true },
      createdAt: '2026-01-01T00:00:00Z',
      updatedAt: '2026-01-01T00:00:00Z',
      mood: 'happy',
    };
    const ok = parseResponse('personas.setRole', persona);
    expect(ok.ok).toBe(true);
    if (ok.ok) {
      expect(ok.value).not.toHaveProperty('mood');
      expect(ok.value.appearance).not.toHaveProperty('sparkle');
    }
    const bad = parseResponse('personas.setRole', { ...persona, name: 5 });
    expect(bad.ok).toBe(false);
  });

  it('checks events: the snapshot cursor must be a non-negative integer', () => {
    const snapshot = { cursor: 3, seats: [], personas: [], stations: [] };
    expect(parseEvent('fleet.changed', { snapshot }).ok).toBe(true);
    expect(parseEvent('fleet.changed', { snapshot: { ...snapshot, cursor: -1 } }).ok).toBe(false);
  });

  it('keeps a seat without subagents unknown rather than zero', () => {
    const seat = { id: 'claude:s', harness: 'claude', personaId: 'p', address: { harness: 'claude', home: '/h', sessionId: 's' }, activity: { state: 'unknown', certain: false, since: null }, unknownReason: 'gone' };
    const parsed = channels['fleet.read'].response.parse({ cursor: 1, seats: [seat], personas: [], stations: [] });
    expect(parsed.seats[0].subagents).toBeUndefined();
  });
});
