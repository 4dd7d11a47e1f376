/** How the owner started Pixelfleet, so hints name the command actually used (`npm start`, `npm run web`, …). */

/** The command that started this process, and the same with the demo fleet. */
export interface StartCommands {
  start: string;
  demo: string;
}

/**
 * From npm's script name when started through npm (`npm start`, `npm run web`), else the installed command for the
 * mode (`pixelfleet web` for browser mode, `pixelfleet` for the desktop app).
 */
export function startCommands(env: Readonly<Record<string, string | undefined>>, mode: 'electron' | 'web'): StartCommands {
  const script = env.npm_lifecycle_event;
  if (script === 'start') return { start: 'npm start', demo: 'npm start -- --demo' };
  if (script === 'web') return { start: 'npm run web', demo: 'npm run web -- --demo' };
  return mode === 'web' ? { start: 'pixelfleet web', demo: 'pixelfleet web --demo' } : { start: 'pixelfleet', demo: 'pixelfleet --demo' };
}
