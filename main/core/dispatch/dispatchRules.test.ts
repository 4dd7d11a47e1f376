import { describe, expect, it } from 'vitest';
import { SEND_MAX_BYTES } from '../../../shared/terminal';
import { cutAtLine, itemBranch, itemPrompt, itemSlug, markdownBody, oneLinePrompt, PROMPT_BODY_MAX_BYTES } from './dispatchRules';

describe('dispatch rules', () => {
  it('rule 1: the slug is the title’s, else the id’s, else "item"; the branch is pf/<slug>', () => {
    expect(itemSlug({ id: 'x.md', title: 'Add a Retry budget!' })).toBe('add-a-retry-budget');
    expect(itemSlug({ id: 'x.md', title: '--force $(touch pwned)' })).toBe('force-touch-pwned');
    expect(itemSlug({ id: 'acme/app#4', title: '日本' })).toBe('acme-app-4');
    expect(itemSlug({ id: '#', title: '…' })).toBe('item');
    expect(itemSlug({ id: 'x', title: 'a'.repeat(47) + '-bcd' })).toBe('a'.repeat(47));
    expect(itemBranch({ id: 'x', title: 'Fix it' })).toBe('pf/fix-it');
  });

  it('rule 2: title, link and a Markdown body cut after a whole line at 8 KiB with a note', () => {
    expect(itemPrompt({ title: 'T', url: 'https://x/1' })).toBe('T\nhttps://x/1');
    expect(markdownBody('---\nlabels: [a]\n---\n\n# T\n\nBody.\n')).toBe('# T\n\nBody.');
    expect(markdownBody('No front matter\n')).toBe('No front matter');
    const line = 'A line of the long body.';
    const body = Array.from({ length: 600 }, () => line).join('\n');
    const prompt = itemPrompt({ title: 'T', url: 'file:///b/long.md' }, { text: body, file: '/b/long.md' });
    const [kept, note] = prompt.split('\n\n').slice(1);
    expect(new TextEncoder().encode(kept).length).toBeLessThanOrEqual(PROMPT_BODY_MAX_BYTES);
    expect(kept.split('\n').every((entry) => entry === line)).toBe(true);
    expect(note).toBe('[The item is longer: its body was cut at 8 KiB. Read the rest in /b/long.md.]');
    expect(cutAtLine('short', 10)).toEqual({ text: 'short', cut: false });
    expect(cutAtLine('ééé\nb', 5)).toEqual({ text: '', cut: true });
  });

  it('rule 3: a terminal gets one line of at most 4 KiB', () => {
    expect(oneLinePrompt('T\nhttps://x\n\n# Body\r\n\tmore')).toBe('T https://x # Body more');
    const long = oneLinePrompt('é'.repeat(5000));
    expect(new TextEncoder().encode(long).length).toBeLessThanOrEqual(SEND_MAX_BYTES);
    expect(long.endsWith(' […cut: the item is longer]')).toBe(true);
  });
});
