// The verdict (docs/faults.md, "The report"): for every fault fired, what the client did next, and the
// findings, each with the request ids and resource ids involved. A pure reading of the fault log.
import type { FaultEvent, FaultReport, Finding } from '../contract/schemas/faults.js';
import type { Seen } from './fault-log.js';

/** More reads of one resource than this in one second (wall time) by one key is polling too fast. */
export const POLL_LIMIT_PER_S = 5;
/** A re-sent signed request whose timestamp is older than this (s) when it is sent was not signed again. */
const STALE_AFTER_S = 2;

/** The effects after which the client cannot know whether its request was applied. */
function ambiguous(effect: string): boolean {
  return ['lost_response', 'reset', 'timeout', 'status 500', 'status 502', 'status 503'].includes(effect);
}

function finding(kind: Finding['kind'], message: string, extra: Partial<Finding> = {}): Finding {
  return { kind, message, request_ids: [], resource_ids: [], duplicate_id: null, rate_per_s: null, ...extra };
}

/** After an ambiguous failure on a money route: the next attempt at the same request by the same key. */
function retryOf(log: readonly Seen[], i: number): Seen | null {
  const f = log[i];
  for (let j = i + 1; j < log.length; j++) {
    const s = log[j];
    if (s.caller !== f.caller || s.method !== f.method || s.path !== f.path) continue;
    if (s.idemKey === f.idemKey || s.bodyHash === f.bodyHash) return s;
  }
  return null;
}

function moneyEvent(
  log: readonly Seen[],
  i: number,
  findings: Finding[],
): Pick<FaultEvent, 'next' | 'next_request_id'> {
  const f = log[i];
  const r = retryOf(log, i);
  if (!r) return { next: 'gave_up', next_request_id: null };
  if (r.idemKey === f.idemKey) return { next: 'retried_same_key', next_request_id: r.requestId };
  const dup = f.applied && r.applied ? r.resourceId : null;
  const ids = [f.resourceId, r.resourceId].filter((v): v is string => v !== null);
  findings.push(
    finding(
      'retry_new_key',
      `${f.method} ${f.path} failed with ${f.fault!.effect} and was retried with a new Idempotency-Key` +
        (dup
          ? `: applied twice, ${dup} duplicates ${f.resourceId}.`
          : ': had the first attempt been applied, it would be twice.'),
      { request_ids: [f.requestId, r.requestId], resource_ids: ids, duplicate_id: dup },
    ),
  );
  return { next: 'retried_new_key', next_request_id: r.requestId };
}

function waitEvent(log: readonly Seen[], i: number, findings: Finding[]): Pick<FaultEvent, 'next' | 'next_request_id'> {
  const f = log[i];
  const next = log.slice(i + 1).find((s) => s.caller === f.caller);
  if (!next) return { next: 'none', next_request_id: null };
  const due = f.wallMs + f.fault!.retryAfterS! * 1000;
  if (next.wallMs >= due) return { next: 'waited', next_request_id: next.requestId };
  findings.push(
    finding(
      'retry_after_ignored',
      `${f.requestId} answered ${f.fault!.effect} with Retry-After: ${f.fault!.retryAfterS}; ` +
        `the key's next request came ${Math.max(0, next.wallMs - f.wallMs)} ms later.`,
      { request_ids: [f.requestId, next.requestId] },
    ),
  );
  return { next: 'came_early', next_request_id: next.requestId };
}

function eventOf(log: readonly Seen[], i: number, findings: Finding[]): FaultEvent {
  const f = log[i];
  const fault = f.fault!;
  const base = {
    request_id: f.requestId,
    rule_id: fault.ruleId,
    route: `${f.method} ${f.path}`,
    effect: fault.effect,
    applied: f.applied,
    resource_id: f.resourceId,
  };
  if (fault.retryAfterS !== null) return { ...base, ...waitEvent(log, i, findings) };
  if (f.money && ambiguous(fault.effect)) return { ...base, ...moneyEvent(log, i, findings) };
  return { ...base, next: 'none', next_request_id: null };
}

/** One finding per key and resource read more than POLL_LIMIT_PER_S times within one second. */
function pollingFindings(log: readonly Seen[]): Finding[] {
  const reads = new Map<string, Seen[]>();
  for (const s of log) {
    if (s.method !== 'GET') continue;
    const k = `${s.caller} ${s.path}`;
    const list = reads.get(k);
    if (list) list.push(s);
    else reads.set(k, [s]);
  }
  const out: Finding[] = [];
  for (const list of reads.values()) {
    let lo = 0;
    for (let hi = 0; hi < list.length; hi++) {
      while (list[hi].wallMs - list[lo].wallMs >= 1000) lo++;
      const n = hi - lo + 1;
      if (n <= POLL_LIMIT_PER_S) continue;
      out.push(
        finding(
          'polling_too_fast',
          `${list[hi].path} was read ${n} times within one second (limit ${POLL_LIMIT_PER_S}/s).`,
          {
            request_ids: [list[lo].requestId, list[hi].requestId],
            rate_per_s: n,
          },
        ),
      );
      break;
    }
  }
  return out;
}

/** A signed request sent again with the timestamp of an earlier attempt, seconds after it: not signed again. */
function staleSignatureFindings(log: readonly Seen[]): Finding[] {
  const first = new Map<string, Seen>();
  const out: Finding[] = [];
  for (const s of log) {
    if (s.timestamp === null || s.idemKey === null) continue;
    const k = `${s.caller} ${s.idemKey} ${s.timestamp}`;
    const earlier = first.get(k);
    if (!earlier) {
      first.set(k, s);
      continue;
    }
    if (Math.floor(s.wallMs / 1000) - Number(s.timestamp) < STALE_AFTER_S) continue;
    out.push(
      finding(
        'stale_signature',
        `${s.requestId} re-sent ${earlier.requestId} with its timestamp ${s.timestamp} instead of a fresh signature.`,
        { request_ids: [earlier.requestId, s.requestId] },
      ),
    );
  }
  return out;
}

export function faultReport(log: readonly Seen[]): FaultReport {
  const findings: Finding[] = [];
  const events: FaultEvent[] = [];
  for (let i = 0; i < log.length; i++) if (log[i].fault) events.push(eventOf(log, i, findings));
  findings.push(...pollingFindings(log), ...staleSignatureFindings(log));
  return {
    faults_fired: events.length,
    requests_seen: log.length,
    events,
    findings,
    polling_limit_per_s: POLL_LIMIT_PER_S,
  };
}
