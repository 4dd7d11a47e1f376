import { describe, expect, it } from 'vitest';
import { headerLine, threadId } from '../../../dev/testing/codexRollout';
import { childLabel, parseHeader } from './header';

const parent = threadId(1);
const at = '2026-04-20T10:00:00.000Z';

describe('headers', () => {
  it('reads a spawned child with nickname, role and path from thread_spawn', () => {
    const header = parseHeader(headerLine({ id: threadId(2), timestamp: at, parent, nickname: 'Euclid', role: 'explorer', agentPath: '/root/file_counter' }));
    expect(header).toMatchObject({ id: threadId(2), origin: 'child', parentThreadId: parent, nickname: 'Euclid', role: 'explorer', agentPath: '/root/file_counter', timestamp: at });
  });

  it('accepts the older role name agent_type', () => {
    expect(parseHeader(headerLine({ id: threadId(2), timestamp: at, parent, role: 'worker', roleKey: 'agent_type' }))?.role).toBe('worker');
  });

  it('treats review/compact/memory helpers (PascalCase Review too) and {other} as helpers', () => {
    for (const source of [{ subagent: 'Review' }, { subagent: 'review' }, { subagent: 'compact' }, { subagent: 'memory_consolidation' }, { subagent: { other: 'x' } }]) {
      expect(parseHeader(headerLine({ id: threadId(3), timestamp: at, source }))?.origin).toBe('helper');
    }
    expect(parseHeader(headerLine({ id: threadId(3), timestamp: at }))?.origin).toBe('session');
  });

  it('rejects a first line that is not a session_meta with an id', () => {
    expect(parseHeader('{"type":"event_msg","payload":{}}')).toBeNull();
    expect(parseHeader('not json')).toBeNull();
    expect(parseHeader('{"type":"session_meta","payload":{}}')).toBeNull();
  });

  it('labels: nickname · path, either alone, else the role, else subagent', () => {
    expect(childLabel({ nickname: 'Euclid', agentPath: '/root/file_counter', role: 'explorer' })).toBe('Euclid · /root/file_counter');
    expect(childLabel({ nickname: 'Euclid', agentPath: null, role: 'explorer' })).toBe('Euclid');
    expect(childLabel({ nickname: null, agentPath: '/root/x', role: null })).toBe('/root/x');
    expect(childLabel({ nickname: null, agentPath: null, role: 'worker' })).toBe('worker');
    expect(childLabel({ nickname: null, agentPath: null, role: null })).toBe('subagent');
  });
});
