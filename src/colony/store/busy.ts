/** The store's queue is full: the receiver answers 503 (gRPC RESOURCE_EXHAUSTED) and the sender retries. */
export class StoreBusyError extends Error {
  override name = 'StoreBusyError';
}
