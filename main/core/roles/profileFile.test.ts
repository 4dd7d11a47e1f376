/** Role profile files: rules P1–P4, the round trip, and the shipped defaults. */
import { describe, expect, it } from 'vitest';
import { BUILT_IN_ROLES } from '../../../shared/roles';
import { effectiveTools } from '../../../shared/roleProfile';
import { DEFAULT_PROFILES } from './defaults';
import { formatProfileText, parseProfileText, validateProfile } from './profileFile';

const GOOD = `---
description: Keeps the sound of the world consistent.
tools:
  allow: [read, search, edit]
  deny: [edit]
models:
  claude: sonnet
  codex: gpt-5-codex
colour: "#12ab34"
---

Listen before you change anything.
`;

describe('role profile files', () => {
  it('reads the fields from the front matter and the charter from the body', () => {
    const parsed = parseProfileText(GOOD);
    expect(parsed).toEqual({
      ok: true,
      profile: {
        description: 'Keeps the sound of the world consistent.',
        charter: 'Listen before you change anything.',
        tools: { allow: ['read', 'search', 'edit'], deny: ['edit'] },
        models: { claude: 'sonnet', codex: 'gpt-5-codex' },
        colour: '#12ab34',
      },
    });
    if (parsed.ok) expect(effectiveTools(parsed.profile)).toEqual(['read', 'search']);
  });

  it('Rule P1: a profile opens and closes its front matter with --- lines', () => {
    expect(parseProfileText('description: x\n')).toEqual({ ok: false, reason: expect.stringMatching(/starts with a --- line/) });
    expect(parseProfileText('---\ndescription: x\n')).toEqual({ ok: false, reason: expect.stringMatching(/not closed/) });
  });

  it('Rule P2: the front matter is a YAML mapping', () => {
    expect(parseProfileText('---\n- a\n- b\n---\n')).toEqual({ ok: false, reason: expect.stringMatching(/mapping of keys/) });
    expect(parseProfileText('---\ndescription: [unclosed\n---\n')).toEqual({ ok: false, reason: expect.stringMatching(/not valid YAML/) });
  });

  it('Rule P3: the fields pass the schema and the reason names the field', () => {
    expect(parseProfileText('---\n---\nbody\n')).toEqual({ ok: false, reason: expect.stringMatching(/^description:/) });
    expect(parseProfileText('---\ndescription: x\ncolor: "#123456"\n---\n')).toEqual({ ok: false, reason: expect.stringMatching(/color: unknown field/) });
    expect(parseProfileText('---\ndescription: x\ncolour: red\n---\n')).toEqual({ ok: false, reason: expect.stringMatching(/^colour: a colour is #rrggbb/) });
    expect(parseProfileText('---\ndescription: x\ntools: { allow: [teleport] }\n---\n')).toEqual({ ok: false, reason: expect.stringMatching(/^tools\.allow\.0:/) });
    expect(parseProfileText('---\ndescription: "two\\nlines"\n---\n')).toEqual({ ok: false, reason: expect.stringMatching(/one line/) });
    expect(parseProfileText('---\ndescription: x\nmodels: { claude: "has space" }\n---\n')).toEqual({ ok: false, reason: expect.stringMatching(/^models\.claude:/) });
  });

  it('Rule P4: the trimmed body is the charter, and a charter field is refused', () => {
    const parsed = parseProfileText('---\ndescription: x\n---\n\n\n  Line one.\n\nLine two.\n\n');
    expect(parsed.ok && parsed.profile.charter).toBe('Line one.\n\nLine two.');
    expect(parseProfileText('---\ndescription: x\ncharter: y\n---\n')).toEqual({ ok: false, reason: expect.stringMatching(/^charter:/) });
  });

  it('formats a profile so that it parses back to the same profile', () => {
    for (const profile of [...Object.values(DEFAULT_PROFILES), (parseProfileText(GOOD) as { ok: true; profile: never }).profile]) {
      expect(parseProfileText(formatProfileText(profile))).toEqual({ ok: true, profile });
    }
  });

  it('ships a valid default profile for each of the six built-ins', () => {
    expect(Object.keys(DEFAULT_PROFILES)).toEqual([...BUILT_IN_ROLES]);
    for (const profile of Object.values(DEFAULT_PROFILES)) expect(validateProfile(profile)).toEqual({ ok: true, profile });
    expect(DEFAULT_PROFILES.builder.charter).toMatch(/own the tests/);
    expect(DEFAULT_PROFILES.reviewer.charter).toMatch(/not from the producer/);
    expect(DEFAULT_PROFILES.reviewer.charter).toMatch(/another family/);
  });
});
