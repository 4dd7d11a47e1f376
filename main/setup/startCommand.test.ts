import { describe, expect, it } from 'vitest';
import { startCommands } from './startCommand';

describe('startCommands', () => {
  it('names the npm script the owner ran', () => {
    expect(startCommands({ npm_lifecycle_event: 'start' }, 'web')).toEqual({ start: 'npm start', demo: 'npm start -- --demo' });
    expect(startCommands({ npm_lifecycle_event: 'start' }, 'electron').demo).toBe('npm start -- --demo');
    expect(startCommands({ npm_lifecycle_event: 'web' }, 'web')).toEqual({ start: 'npm run web', demo: 'npm run web -- --demo' });
  });

  it('names the installed command otherwise, by mode', () => {
    expect(startCommands({}, 'web')).toEqual({ start: 'pixelfleet web', demo: 'pixelfleet web --demo' });
    expect(startCommands({ npm_lifecycle_event: 'test' }, 'electron')).toEqual({ start: 'pixelfleet', demo: 'pixelfleet --demo' });
  });
});
