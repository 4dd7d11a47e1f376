import type { ErrorCode } from '../../shared/contract';

/** An expected failure that crosses a boundary (IPC, CLI) as `{ code, message }`; the message is for the owner. */
export class ServiceError extends Error {
  constructor(
    /** A stable machine code, one of the contract's ERROR_CODES. */
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ServiceError';
  }
}
