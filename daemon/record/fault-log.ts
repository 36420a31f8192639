// What the fault report reads (docs/faults.md, "The report"): every tenant request seen while the report
// is open (from the first rule added until a sandbox reset), in arrival order, with the fault that fired
// on it and how it ended. In memory, bounded: past MAX_SEEN the oldest are forgotten.
export const MAX_SEEN = 100_000;

export interface SeenFault {
  /** null: the rate limit answered 429. */
  ruleId: string | null;
  /** "status 503", "latency", "reset", "lost_response", "timeout", "rate_limit". */
  effect: string;
  retryAfterS: number | null;
}

export interface Seen {
  requestId: string;
  wallMs: number;
  method: string;
  /** "POST /v1/transfers/:id" (the router's template). */
  route: string;
  path: string;
  /** The API key as a fingerprint (never the key). */
  caller: string;
  idemKey: string | null;
  bodyHash: string;
  /** X-Svc-Timestamp of a signed request, else null. */
  timestamp: string | null;
  /** A money route: a tenant write that needs an Idempotency-Key (I or S). */
  money: boolean;
  /** The answer's status; null when the connection was dropped unanswered. */
  status: number | null;
  /** The created or read resource's id (the answer's `id`), when there was one. */
  resourceId: string | null;
  /** The request ran and committed (an answer below 400, or a lost_response of one). */
  applied: boolean;
  fault: SeenFault | null;
}

export interface FaultLog {
  isOpen(): boolean;
  open(): void;
  clear(): void;
  add(seen: Seen): void;
  all(): readonly Seen[];
  onChange(fn: () => void): void;
}

export function createFaultLog(): FaultLog {
  let open = false;
  let seen: Seen[] = [];
  const listeners: Array<() => void> = [];
  const changed = () => {
    for (const fn of listeners) fn();
  };
  return {
    isOpen: () => open,
    open() {
      if (open) return;
      open = true;
      changed();
    },
    clear() {
      seen = [];
      open = false;
      changed();
    },
    add(s) {
      seen.push(s);
      if (seen.length > MAX_SEEN) seen.splice(0, seen.length - MAX_SEEN);
    },
    all: () => seen,
    onChange: (fn) => void listeners.push(fn),
  };
}
