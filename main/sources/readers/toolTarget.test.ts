// The files a tool call acts on, per harness's recorded input shapes: paths only, never content.
import { describe, expect, it } from 'vitest';
import { toolTargets } from './toolTarget';
import { TARGETS_PER_CALL } from './kit/bounds';

describe('tool targets', () => {
  it('Claude Code: read, edit, write and search tools name their file or folder', () => {
    expect(toolTargets('Read', { file_path: '/repo/src/a.ts', offset: 10 })).toEqual([{ path: '/repo/src/a.ts', action: 'read' }]);
    expect(toolTargets('Edit', { file_path: '/repo/src/a.ts', old_string: 'secret', new_string: 'other' })).toEqual([{ path: '/repo/src/a.ts', action: 'edit' }]);
    expect(toolTargets('Write', { file_path: 'notes.md', content: 'body text' })).toEqual([{ path: 'notes.md', action: 'write' }]);
    expect(toolTargets('NotebookEdit', { notebook_path: 'a.ipynb', new_source: 'x' })).toEqual([{ path: 'a.ipynb', action: 'edit' }]);
    expect(toolTargets('Grep', { pattern: 'TODO', path: 'src' })).toEqual([{ path: 'src', action: 'search' }]);
  });

  it('a search without a folder, a shell command and an unknown tool give no target', () => {
    expect(toolTargets('Grep', { pattern: 'TODO' })).toEqual([]);
    expect(toolTargets('Bash', { command: 'cat /etc/passwd' })).toEqual([]);
    expect(toolTargets('exec_command', '{"cmd":"sed -n 1,20p src/a.ts"}')).toEqual([]);
    expect(toolTargets('Mystery', { file_path: 'a' })).toEqual([]);
  });

  it('OpenCode: camel-case filePath and lowercase tool names', () => {
    expect(toolTargets('read', { filePath: '/repo/b.ts' })).toEqual([{ path: '/repo/b.ts', action: 'read' }]);
    expect(toolTargets('glob', { pattern: '**/*.ts', path: 'src' })).toEqual([{ path: 'src', action: 'search' }]);
  });

  it('Codex: arguments recorded as JSON text, and a patch names its files (never its body)', () => {
    expect(toolTargets('read_file', '{"file_path":"src/c.ts"}')).toEqual([{ path: 'src/c.ts', action: 'read' }]);
    const patch = '*** Begin Patch\n*** Update File: src/a.ts\n@@\n-old secret\n+new\n*** Add File: src/b.ts\n+content\n*** Update File: src/a.ts\n*** End Patch';
    expect(toolTargets('apply_patch', patch)).toEqual([
      { path: 'src/a.ts', action: 'edit' },
      { path: 'src/b.ts', action: 'write' },
    ]);
    expect(toolTargets('apply_patch', JSON.stringify({ input: patch })).map((target) => target.path)).toEqual(['src/a.ts', 'src/b.ts']);
  });

  it('drops a path that is empty, multi-line or too long, and bounds a patch over many files', () => {
    expect(toolTargets('Read', { file_path: '  ' })).toEqual([]);
    expect(toolTargets('Read', { file_path: 'a\nb' })).toEqual([]);
    expect(toolTargets('Read', { file_path: 'x'.repeat(2000) })).toEqual([]);
    const many = Array.from({ length: 40 }, (_, index) => `*** Update File: f${index}.ts`).join('\n');
    expect(toolTargets('apply_patch', many)).toHaveLength(TARGETS_PER_CALL);
  });
});
