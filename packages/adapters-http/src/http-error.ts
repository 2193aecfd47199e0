import { httpStatusOf, type ErrorCode } from './error-mapping.js';

/** An error raised at the HTTP edge (authentication, authorization) with its wire code. */
export class HttpError extends Error {
  override readonly name = 'HttpError';

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  get statusCode(): number {
    return httpStatusOf[this.code];
  }
}
