// The desktop page's file rule: malformed URLs and escapes answer 400 or 404, and never throw.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { appFileFor } from './appUrl';

const root = '/opt/pixelfleet/renderer';

describe('app:// request to renderer file', () => {
  it('serves index.html for the root and files inside the renderer folder', () => {
    expect(appFileFor(root, 'app://pixelfleet/')).toEqual({ ok: true, file: join(root, 'index.html') });
    expect(appFileFor(root, 'app://pixelfleet/assets/main.js')).toEqual({ ok: true, file: join(root, 'assets', 'main.js') });
    expect(appFileFor(root, 'app://pixelfleet/a%20b.png')).toEqual({ ok: true, file: join(root, 'a b.png') });
  });

  it('answers 400 for a URL or an escape that cannot be parsed, without throwing', () => {
    for (const url of ['//[', 'app://[', 'not a url', '', 'app://pixelfleet/%E0%A4%A', 'app://pixelfleet/%', 'app://pixelfleet/a%00.js']) {
      expect(() => appFileFor(root, url)).not.toThrow();
      expect(appFileFor(root, url)).toEqual({ ok: false, status: 400 });
    }
  });

  it('answers 404 for another host or a path that leaves the renderer folder', () => {
    for (const url of ['app://elsewhere/index.html', 'app://pixelfleet/..%2F..%2Fsecret', 'app://pixelfleet/%2F..%2F..%2Fetc%2Fpasswd']) {
      expect(appFileFor(root, url)).toEqual({ ok: false, status: 404 });
    }
  });
});
