/**
 * An error meant for a person: `message` says what was wrong, `hint` what is accepted or what to do.
 * Commands print these without a stack trace; anything else is a bug and keeps its stack.
 */
export class CoralError extends Error {
  constructor(
    message: string,
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'CoralError';
  }
}

export function describeError(err: unknown): string {
  if (err instanceof CoralError) return err.hint ? `${err.message}\n  ${err.hint}` : err.message;
  if (err instanceof Error) return err.message;
  return String(err);
}
