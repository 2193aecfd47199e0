/** Every way a domain operation can refuse, with the message a client sees when no detail is given. */
const defaultMessages = {
  meal_not_found: 'The meal does not exist.',
  meal_not_rateable: 'This meal cannot be rated.',
  meal_not_yet_served: 'This meal has not been served yet.',
  rating_period_over: 'This meal was served more than one week ago and can no longer be rated.',
  invalid_meal: 'The meal is not valid.',
} as const;

export type DomainErrorCode = keyof typeof defaultMessages;

export const domainErrorCodes = Object.keys(defaultMessages) as readonly DomainErrorCode[];

export class DomainError extends Error {
  override readonly name = 'DomainError';

  constructor(
    readonly code: DomainErrorCode,
    message: string = defaultMessages[code],
  ) {
    super(message);
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}
