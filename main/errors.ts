/** An expected failure that crosses a boundary (IPC, CLI) as `{ code, message }`; the message is for the owner. */
export class ServiceError extends Error {
  constructor(
    /** A stable machine code: `invalid_request`, `not_found`, `invalid_role`, `refused`, `unavailable`, `internal`. */
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}
