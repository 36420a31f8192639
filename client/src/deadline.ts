// An attempt's deadline as an AbortSignal, for a transport that cannot keep one itself: aborted on the
// caller's signal or when `timeoutMs` has passed, whichever comes first (AbortSignal.any is Node >= 20.3).

export interface Deadline {
  signal: AbortSignal;
  /** Clears the timer and lets go of the caller's signal: call it when the attempt ends. */
  done(): void;
}

export function deadlineSignal(timeoutMs: number, caller: AbortSignal | undefined): Deadline {
  const ends = new AbortController();
  const abort = () => ends.abort(caller?.reason);
  const timer = setTimeout(() => ends.abort(new Error(`the attempt timed out (${timeoutMs} ms)`)), timeoutMs);
  if (caller?.aborted) abort();
  caller?.addEventListener('abort', abort, { once: true });
  return {
    signal: ends.signal,
    done: () => {
      clearTimeout(timer);
      caller?.removeEventListener('abort', abort);
    },
  };
}
