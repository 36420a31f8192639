// The fault that fired on a request, from the fault gate (faults.ts, which decides before the request
// runs) to the journal entry the request writes (mutation.ts, inside its savepoint): docs/faults.md,
// "Replay". Keyed by the request object, so it lives exactly as long as the request.
import type { FastifyRequest } from 'fastify';
import type { JournalFault } from '../contract/journal.js';

const marks = new WeakMap<FastifyRequest, JournalFault>();

/** Notes that a fault which lets the request run (lost_response, latency) fired on it. */
export function markFault(req: FastifyRequest, fault: JournalFault): void {
  marks.set(req, fault);
}

/** The fault that fired on this request, or null. */
export function faultOf(req: FastifyRequest): JournalFault | null {
  return marks.get(req) ?? null;
}
