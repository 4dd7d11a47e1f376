/** The `notify` part of settings.json: which needs-you reasons notify, the turn length that earns one, the chime. */
import { z } from 'zod';
import { NeedsWhySchema, type NeedsWhy } from '../../../shared/schemas';

/** The notify settings as written in the file; every field optional. */
export const NotifySettingsSchema = z.object({
  on: z.array(NeedsWhySchema),
  minTurnSeconds: z.number().int().min(0).max(86_400),
  sound: z.boolean(),
});

/** Notify settings after loading. */
export interface NotifySettings {
  /** Reasons that notify (a `turn-done` only after a turn of at least `minTurnSeconds`). */
  on: NeedsWhy[];
  /** Shortest turn, in seconds, whose end notifies. */
  minTurnSeconds: number;
  /** A short synthesised chime with each notification (off by default). */
  sound: boolean;
}

/** Defaults: question, plan, approval, error and long turns notify; no chime. */
export function defaultNotifySettings(): NotifySettings {
  return { on: ['question', 'plan', 'approval', 'error', 'turn-done'], minTurnSeconds: 60, sound: false };
}

/** Reads `notify` field by field: a bad field is reported and its default used, the others still apply. */
export function parseNotifySettings(raw: unknown, file: string, problems: string[]): NotifySettings {
  const settings = defaultNotifySettings();
  if (raw === undefined) return settings;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    problems.push(`${file}: notify must be an object such as { "on": ["question"], "minTurnSeconds": 60, "sound": false }; defaults are used.`);
    return settings;
  }
  const value = raw as Record<string, unknown>;
  for (const key of Object.keys(value)) {
    if (!(key in NotifySettingsSchema.shape)) problems.push(`${file}: notify.${key} is not a setting (use on, minTurnSeconds, sound); it was ignored.`);
  }
  if (value.on !== undefined) {
    const parsed = NotifySettingsSchema.shape.on.safeParse(value.on);
    if (parsed.success) settings.on = [...new Set(parsed.data)];
    else problems.push(`${file}: notify.on must be a list of ${NeedsWhySchema.options.map((why) => `"${why}"`).join(', ')}; the default is used.`);
  }
  if (value.minTurnSeconds !== undefined) {
    const parsed = NotifySettingsSchema.shape.minTurnSeconds.safeParse(value.minTurnSeconds);
    if (parsed.success) settings.minTurnSeconds = parsed.data;
    else problems.push(`${file}: notify.minTurnSeconds must be a whole number of seconds from 0 to 86400; 60 is used.`);
  }
  if (value.sound !== undefined) {
    if (typeof value.sound === 'boolean') settings.sound = value.sound;
    else problems.push(`${file}: notify.sound must be true or false; the chime stays off.`);
  }
  return settings;
}
