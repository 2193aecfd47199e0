/**
 * An outage, not a refusal: the storage behind a port cannot keep a write (its file is gone, it turned read-only,
 * the disk is full, the connection is lost). Nothing was acknowledged; the client may retry later.
 * `message` is for the log; clients only learn the code.
 */
export class StorageUnavailableError extends Error {
  override readonly name = 'StorageUnavailableError';
}

export function isStorageUnavailable(error: unknown): error is StorageUnavailableError {
  return error instanceof StorageUnavailableError;
}
