// Lists that refresh by polling, and mutations that are pessimistic: a button shows its action as
// running until the server answers, and nothing changes on screen before that answer. A step-up
// refusal runs the passkey step-up once and retries the same call.
import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from './api';
import { stepUp } from './auth';

export const POLL_MS = 2000;

export function usePoll<T>(
  load: () => Promise<T>,
  deps: unknown[] = [],
): { data: T | null; error: ApiError | null; reload: () => void } {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const loadRef = useRef(load);
  loadRef.current = load;
  const run = useCallback(() => {
    loadRef.current().then(
      (d) => {
        setData(d);
        setError(null);
      },
      (e: unknown) => {
        const err = toApiError(e);
        setError(err);
        if (err.status === 401 || err.status === 403) setData(null); // no longer allowed to read it: stop showing it
      },
    );
  }, []);
  useEffect(() => {
    setData(null);
    run();
    const t = setInterval(run, POLL_MS);
    return () => clearInterval(t);
    // biome-ignore lint/correctness/useExhaustiveDependencies: the caller's deps say when to fetch again
  }, deps);
  return { data, error, reload: run };
}

export function toApiError(e: unknown): ApiError {
  if (e instanceof ApiError) return e;
  const name = e instanceof Error ? e.name : 'Error';
  return new ApiError(
    name === 'NotAllowedError' ? 'PASSKEY_CANCELLED' : 'CLIENT_ERROR',
    e instanceof Error ? e.message : String(e),
    0,
  );
}

/** Runs a mutation; on STEP_UP_REQUIRED steps up with the passkey and tries once more. */
export async function withStepUp<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (!(e instanceof ApiError) || e.code !== 'STEP_UP_REQUIRED') throw e;
    await stepUp();
    return fn();
  }
}

export function useAction(onDone: () => void) {
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<ApiError | null>(null);
  const run = useCallback(
    async (key: string, fn: () => Promise<unknown>) => {
      setPending(key);
      setError(null);
      try {
        await withStepUp(fn);
        onDone();
      } catch (e) {
        setError(toApiError(e));
      } finally {
        setPending(null);
      }
    },
    [onDone],
  );
  return { pending, error, run };
}
