import { execFileSync } from 'node:child_process';
import { constants } from 'node:fs';
import { mkdir, mkdtemp, open, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { firstHeading, parseLabels, parseMarkdownItem } from './markdownItem';
import { createMarkdownSource } from './markdownSource';
import { SourceFailure } from './port';

let folder: string;
/** FIFOs made by a test: a reader blocked on one (a failing run) is released by opening it for writing. */
const fifos: string[] = [];

beforeEach(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'pixelfleet-markdown-'));
});

afterEach(async () => {
  for (const fifo of fifos.splice(0)) {
    await open(fifo, constants.O_WRONLY | constants.O_NONBLOCK).then(
      (handle) => handle.close(),
      () => undefined,
    );
  }
  await rm(folder, { recursive: true, force: true });
});

const write = (name: string, text: string) => writeFile(path.join(folder, name), text);

describe('Markdown source', () => {
  it('reads every .md file in the folder with its labels, title and status', async () => {
    await write('a-list.md', '---\ntitle: Balance the mixer\nlabels:\n  - Sound Designer\n  - audio\nstatus: doing\n---\n# Ignored heading\n');
    await write('b-comma.md', '---\nlabels: tester, writer ,  \n---\n\nSome text first\n\n## Check the sign-up flow\n');
    await write('c-bare.md', '---\nlabels: [ops]\n---\nno heading here\n');
    await write('d-plain.md', '# Just a note\n\nNo front matter at all.\n');
    await write('notes.txt', '---\nlabels: tester\n---\n');
    await mkdir(path.join(folder, 'nested'));
    await writeFile(path.join(folder, 'nested', 'deep.md'), '---\nlabels: tester\n---\n');

    const listing = await createMarkdownSource({ kind: 'markdown', dir: folder }).list();

    expect(listing.problems).toEqual([]);
    expect(listing.items).toEqual([
      { source: 'markdown', id: 'a-list.md', title: 'Balance the mixer', labels: ['Sound Designer', 'audio'], status: 'doing', url: pathToFileURL(path.join(folder, 'a-list.md')).href },
      { source: 'markdown', id: 'b-comma.md', title: 'Check the sign-up flow', labels: ['tester', 'writer'], status: null, url: pathToFileURL(path.join(folder, 'b-comma.md')).href },
      { source: 'markdown', id: 'c-bare.md', title: 'c-bare', labels: ['ops'], status: null, url: pathToFileURL(path.join(folder, 'c-bare.md')).href },
      { source: 'markdown', id: 'd-plain.md', title: 'Just a note', labels: [], status: null, url: pathToFileURL(path.join(folder, 'd-plain.md')).href },
    ]);
  });

  it('reports a file with malformed YAML and keeps the others', async () => {
    await write('bad.md', '---\nlabels: [tester\ntitle: "unclosed\n---\n');
    await write('good.md', '---\nlabels: tester\n---\n# Fine\n');
    await write('list-front.md', '---\n- just\n- a list\n---\n');

    const listing = await createMarkdownSource({ kind: 'markdown', dir: folder }).list();

    expect(listing.items.map((item) => item.id)).toEqual(['good.md']);
    expect(listing.problems).toHaveLength(2);
    expect(listing.problems[0]).toMatch(/^Markdown: bad\.md: the front matter is not valid YAML \(.+\); the file is skipped\.$/);
    expect(listing.problems[1]).toBe('Markdown: list-front.md: the front matter must be a mapping of keys; the file is skipped.');
  });

  it('reads only the head of a large file', async () => {
    const filler = 'x'.repeat(100 * 1024);
    await write('large.md', `---\nlabels: tester\n---\n# Large\n${filler}\n`);
    await write('unclosed.md', `---\nlabels: tester\n${'# filler line\n'.repeat(6000)}---\n`);

    const listing = await createMarkdownSource({ kind: 'markdown', dir: folder }).list();

    expect(listing.items.map((item) => [item.id, item.title])).toEqual([['large.md', 'Large']]);
    expect(listing.problems).toEqual(['Markdown: unclosed.md: the front matter is not closed within the first 64 KiB; the file is skipped.']);
  });

  it('skips and counts a link to a FIFO, a FIFO, and a link that leads out of the folder, without blocking', async () => {
    const outside = await mkdtemp(path.join(tmpdir(), 'pixelfleet-outside-'));
    try {
      await writeFile(path.join(outside, 'secret.md'), '---\nlabels: tester\ntitle: Outside\n---\n');
      execFileSync('mkfifo', [path.join(outside, 'pipe')]);
      execFileSync('mkfifo', [path.join(folder, 'direct.md')]);
      fifos.push(path.join(outside, 'pipe'), path.join(folder, 'direct.md'));
      await symlink(path.join(outside, 'pipe'), path.join(folder, 'pipe.md'));
      await symlink(path.join(outside, 'secret.md'), path.join(folder, 'escape.md'));
      await mkdir(path.join(folder, 'sub'));
      execFileSync('mkfifo', [path.join(folder, 'sub', 'inner')]);
      fifos.push(path.join(folder, 'sub', 'inner'));
      await symlink(path.join(folder, 'sub', 'inner'), path.join(folder, 'inner-pipe.md'));
      await writeFile(path.join(folder, 'sub', 'kept.md'), '---\nlabels: tester\n---\n# Kept\n');
      await symlink(path.join(folder, 'sub', 'kept.md'), path.join(folder, 'linked.md'));
      await write('plain.md', '---\nlabels: tester\n---\n# Plain\n');

      const listing = await createMarkdownSource({ kind: 'markdown', dir: folder }).list();

      expect(listing.items.map((item) => [item.id, item.title])).toEqual([['linked.md', 'Kept'], ['plain.md', 'Plain']]);
      expect(listing.problems).toEqual([
        `Markdown: skipped 4 entries in ${folder} that are not a regular file inside the folder (direct.md, escape.md, inner-pipe.md, pipe.md).`,
      ]);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it('fails as a whole when the folder is missing', async () => {
    const missing = path.join(folder, 'nowhere');
    const error = await createMarkdownSource({ kind: 'markdown', dir: missing }).list().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SourceFailure);
    expect((error as SourceFailure).message).toBe(`Markdown: folder ${missing} not found; check workSources in settings.json.`);
  });
});

describe('Markdown parsing', () => {
  it('parses labels from a list, a comma string or a scalar, and refuses mappings', () => {
    expect(parseLabels(['a', ' b ', 'a', 3])).toEqual(['a', 'b', '3']);
    expect(parseLabels('a, b,,c')).toEqual(['a', 'b', 'c']);
    expect(parseLabels(undefined)).toEqual([]);
    expect(parseLabels({ a: 1 })).toBeNull();
    expect(parseLabels([['nested']])).toBeNull();
  });

  it('finds the first heading outside code fences', () => {
    expect(firstHeading('```\n# not this\n```\n### This one ###\n# later')).toBe('This one');
    expect(firstHeading('#hashtag\nplain')).toBeNull();
  });

  it('treats empty front matter and a byte-order mark as valid, and refuses a mapping for labels', () => {
    expect(parseMarkdownItem('e.md', '\uFEFF---\n---\n# Empty\n', 'file:///e.md')).toEqual({
      ok: true,
      item: { source: 'markdown', id: 'e.md', title: 'Empty', labels: [], status: null, url: 'file:///e.md' },
    });
    const refused = parseMarkdownItem('m.md', '---\nlabels:\n  role: tester\n---\n', 'file:///m.md');
    expect(refused).toEqual({ ok: false, problem: 'Markdown: m.md: labels must be a list or a comma-separated string; the file is skipped.' });
  });

  it('accepts CRLF line endings', () => {
    const parsed = parseMarkdownItem('w.md', '---\r\nlabels: tester\r\nstatus: todo\r\n---\r\n# Windows\r\n', 'file:///w.md');
    expect(parsed).toMatchObject({ ok: true, item: { labels: ['tester'], status: 'todo', title: 'Windows' } });
  });
});
