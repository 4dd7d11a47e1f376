/** Per-test cleanups for the OpenCode tests (imports vitest, so only tests may import it). */
import { afterEach } from 'vitest';
import { makeTempDir } from './opencodeStore';

/** Cleanups run after each test of the calling file, and temp folders that are removed with them. */
export function perTestCleanups(): { cleanups: (() => void)[]; tempDir: () => string } {
  const cleanups: (() => void)[] = [];
  afterEach(() => {
    while (cleanups.length > 0) cleanups.pop()?.();
  });
  const tempDir = () => {
    const temp = makeTempDir();
    cleanups.push(temp.remove);
    return temp.dir;
  };
  return { cleanups, tempDir };
}
