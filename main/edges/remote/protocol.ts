/**
 * The `serve --stdio` protocol: the WebSocket's messages, one per line, after a hello each way that names the
 * contract version. Requests `{ id, channel, payload }`, answers `{ id, ok, value | error }`, events `{ event, payload }`.
 */
import { z } from 'zod';
import { CONTRACT_VERSION } from '../../../shared/contract';

/** The first frame each end sends. */
export const HelloSchema = z.object({
  hello: z.object({ contract: z.number().int(), app: z.string().max(64) }),
});
export type Hello = z.infer<typeof HelloSchema>;

/** The hello of this build. */
export function helloFrame(app: string): Hello {
  return { hello: { contract: CONTRACT_VERSION, app } };
}

/** The sentence that refuses a peer of another contract version, naming both versions. */
export function versionMismatch(remote: { contract: number; app: string }, local: { contract: number; app: string }): string {
  return `the remote speaks contract version ${remote.contract} (Pixelfleet ${remote.app}) but this host speaks contract version ${local.contract} (Pixelfleet ${local.app}); install the same Pixelfleet version on both machines`;
}
