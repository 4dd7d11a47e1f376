/** The `terminal` entry of settings.json, beside the launcher that uses it; the settings schema takes it from here. */
import { z } from 'zod';

/**
 * The terminal that opens attached to a launched agent: an argument vector (never a shell string) to which the tmux
 * attach command's own vector is appended, e.g. `["xterm", "-e"]` or `["gnome-terminal", "--"]`. `null` or absent:
 * off.
 */
export const TerminalSchema = z
  .object({
    command: z.array(z.string().min(1, 'must not hold an empty word').max(1000)).min(1, 'must name the terminal program').max(32),
  })
  .strict()
  .nullable();
export type TerminalConfig = z.infer<typeof TerminalSchema>;
