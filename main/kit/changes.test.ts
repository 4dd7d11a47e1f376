import { describe, expect, it } from 'vitest';
import { Changes } from './changes';

describe('Changes', () => {
  it('resolves an emit only after every listener finished its own work', async () => {
    const changes = new Changes<number>('test');
    const done: string[] = [];
    changes.on(async (value) => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      done.push(`slow ${value}`);
    });
    changes.on((value) => {
      done.push(`quick ${value}`);
    });
    await changes.emit(7);
    expect(done.sort()).toEqual(['quick 7', 'slow 7']);
  });

  it('logs a failing listener once and still tells the others; a removed listener hears nothing', async () => {
    const logged: string[] = [];
    const changes = new Changes('persona', (message) => logged.push(message));
    const heard: string[] = [];
    changes.on(() => {
      throw new Error('boom');
    });
    changes.on(async () => {
      throw new Error('async boom');
    });
    const off = changes.on(() => {
      heard.push('removed');
    });
    changes.on(() => {
      heard.push('kept');
    });
    off();
    await changes.emit();
    expect(heard).toEqual(['kept']);
    expect(logged.sort()).toEqual(['pixelfleet: a persona listener failed: async boom', 'pixelfleet: a persona listener failed: boom']);
  });
});
