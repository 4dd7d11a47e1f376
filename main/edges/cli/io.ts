/** The output channels of one `pixelfleet` invocation, apart from the router so every command can take them. */

/** Output channels of one invocation (captured in tests). */
export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
}
