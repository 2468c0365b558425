import { StorageConflictError, isUniqueViolation } from '../errors.js';

/** Awaits a write, turning a unique violation of either driver into a StorageConflictError. */
export async function conflictsAsStorageErrors<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (err) {
    if (isUniqueViolation(err)) throw new StorageConflictError('unique constraint', { cause: err });
    throw err;
  }
}
