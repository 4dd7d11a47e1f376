/** The profile form's pure rules: values from a profile, the profile back with problems by field, the export folder. */
import { describe, expect, it } from 'vitest';
import type { FleetSnapshot } from '../../shared/schemas';
import { defaultExportFolder, errorSlot, profileFormValues, profileOfForm } from './profileForm';

describe('the profile form', () => {
  it('gives the same profile back from its values', () => {
    const profile = { description: 'Reviews.', charter: 'Read the diff.', tools: { allow: ['read' as const, 'shell' as const], deny: ['edit' as const] }, models: { codex: 'gpt-5' }, colour: '#123456' };
    expect(profileOfForm(profileFormValues(profile))).toEqual({ profile, errors: [] });
  });

  it('leaves the tools to the harness when every tool is allowed, and drops empty models and colour', () => {
    const values = { ...profileFormValues(null), description: 'Plans.' };
    expect(profileOfForm(values).profile).toEqual({ description: 'Plans.', charter: '', tools: { deny: [] }, models: {} });
  });

  it('names each problem by its field and groups tool problems under tools', () => {
    const values = { ...profileFormValues(null), description: '', colour: 'blue', models: { claude: 'a b', opencode: '', codex: '' } };
    const errors = profileOfForm(values).errors;
    expect(errors.map((error) => errorSlot(error.field)).sort()).toEqual(['colour', 'description', 'models.claude']);
    expect(errorSlot('tools.allow.3')).toBe('tools');
  });

  it('starts the export from the most recent working folder of the station\'s agents', () => {
    const seat = (personaId: string, cwd: string | null, since: string | null) => ({ id: personaId, harness: 'claude', personaId, address: { harness: 'claude', home: '/h', sessionId: personaId, cwd }, activity: { state: 'idle', certain: true, since } });
    const fleet = {
      cursor: 1,
      personas: [{ id: 'a', name: 'A', role: 'Tester' }, { id: 'b', name: 'B', role: 'tester' }, { id: 'c', name: 'C', role: 'builder' }],
      seats: [seat('a', '/old', '2026-01-01T00:00:00Z'), seat('b', '/new', '2026-02-01T00:00:00Z'), seat('c', '/other', '2026-03-01T00:00:00Z')],
      stations: [],
    } as unknown as FleetSnapshot;
    expect(defaultExportFolder(fleet, 'tester')).toBe('/new');
    expect(defaultExportFolder(fleet, 'designer')).toBe('');
  });
});
