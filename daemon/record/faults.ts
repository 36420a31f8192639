// The sandbox's fault rules (docs/faults.md): which tenant requests a fault fires on, decided before
// the request does anything, from a stream of the seeded randomness of its own (so faults never shift
// any other random value, and the same seed and the same requests fire the same faults). In memory,
// like the request inspector: a sandbox reset or a daemon restart clears them. The HTTP layer carries
// the effects out (daemon/http/faults.ts); what the client did next is fault-report.ts's.
import { Prng, hash32 } from '../sim/prng.js';
import type { FaultEffect, FaultRule, FaultRuleInput } from '../contract/schemas/faults.js';
import type { ErrorCode } from '../contract/errors.js';
import { createRateLimit, type RateLimit, type RateLimitSpec } from './rate-limit.js';
import { createFaultLog, type FaultLog } from './fault-log.js';

/** A fault that fired: its rule and its effect, a ranged latency already drawn. */
export interface FiredFault {
  ruleId: string;
  effect: FaultEffect;
  delayMs: number;
}

export type RuleRefusal = { code: ErrorCode; message: string };

export interface FaultEngine {
  /** False while there is no rule, no rate limit and no report open: the pipeline's one check. */
  readonly armed: boolean;
  add(input: FaultRuleInput): FaultRule | RuleRefusal;
  list(): FaultRule[];
  /** Removes one rule or, without an id, every rule (the report stays); how many went. */
  remove(id?: string): number;
  /** The fault that fires on this request, or null; counts the match either way. */
  decide(method: string, url: string, tenantId: string | null): FiredFault | null;
  rateLimit: RateLimit;
  log: FaultLog;
  /** The tenant routes a rule may name, as "METHOD /v1/:template" (the app sets them once). */
  setRoutes(routes: ReadonlySet<string>): void;
  /** A sandbox reset: no rules, an empty report, the stream re-seeded, the rate limit as given. */
  reset(seed: number, limit?: RateLimitSpec | null): void;
}

/** "GET /v1/orders/{id}" as the router's "GET /v1/orders/:id". */
export function routeKey(route: string): string {
  return route.trim().replace(/\{([^}]+)\}/g, ':$1');
}

/** The rule's input as a refusal naming the field, or null when it is sound. */
function refusal(input: FaultRuleInput, routes: ReadonlySet<string>): RuleRefusal | null {
  if (input.route !== '*' && !routes.has(routeKey(input.route)))
    return { code: 'FAULT_ROUTE_UNKNOWN', message: `route: no tenant route ${JSON.stringify(input.route)}.` };
  const triggers = [input.every, input.probability, input.times].filter((v) => v !== undefined);
  if (triggers.length > 1) return { code: 'FAULT_TRIGGER_INVALID', message: 'every, probability, times: send one.' };
  const e = input.effect;
  const bad = (m: string): RuleRefusal => ({ code: 'FAULT_EFFECT_INVALID', message: `effect.${m}` });
  if (e.type === 'status' && e.status === undefined) return bad('status: 429, 500, 502 or 503 is required.');
  if (e.type !== 'status' && (e.status !== undefined || e.retry_after_s !== undefined))
    return bad('status: only a status effect has a status and a retry_after_s.');
  if (e.type === 'status' && e.retry_after_s !== undefined && e.status !== 429 && e.status !== 503)
    return bad('retry_after_s: only 429 and 503 carry a Retry-After.');
  const ranged = e.min_ms !== undefined || e.max_ms !== undefined;
  if (e.type === 'latency' && (e.ms !== undefined) === ranged) return bad('ms: send ms, or min_ms and max_ms.');
  if (e.type === 'latency' && ranged && !(e.min_ms !== undefined && e.max_ms !== undefined && e.min_ms <= e.max_ms))
    return bad('min_ms: send min_ms <= max_ms.');
  if (e.type !== 'latency' && (e.ms !== undefined || ranged)) return bad('ms: only a latency effect has a delay.');
  if ((e.type === 'timeout') !== (e.seconds !== undefined)) return bad('seconds: a timeout, and only it, has seconds.');
  return null;
}

/** Whether a matching request fires the rule (counts it), drawing from the stream only for a probability. */
function fires(rule: FaultRule, stream: Prng): boolean {
  rule.matched++;
  if (rule.times !== null) return rule.fired < rule.times;
  if (rule.every !== null) return rule.matched % rule.every === 0;
  if (rule.probability !== null) return stream.nextUint32() < Math.floor(rule.probability * 2 ** 32);
  return true;
}

export function createFaultEngine(seed: number, limit: RateLimitSpec | null = null): FaultEngine {
  let routes: ReadonlySet<string> = new Set();
  let rules: FaultRule[] = [];
  let counter = 0;
  let stream = new Prng(hash32('faults', seed));
  const rateLimit = createRateLimit(limit);
  const log = createFaultLog();
  const engine: FaultEngine = {
    armed: false,
    rateLimit,
    log,
    add(input) {
      const bad = refusal(input, routes);
      if (bad) return bad;
      const route = input.route === '*' ? '*' : input.route.trim().replace(/\s+/, ' ');
      const rule: FaultRule = {
        id: `flt_${++counter}`,
        route,
        tenant_id: input.tenant_id ?? null,
        every: input.every ?? null,
        probability: input.probability ?? null,
        times: input.times ?? null,
        effect: input.effect,
        matched: 0,
        fired: 0,
      };
      rules.push(rule);
      log.open();
      rearm();
      return rule;
    },
    list: () => rules.map((r) => ({ ...r })),
    setRoutes(set) {
      routes = set;
    },
    remove(id) {
      const before = rules.length;
      rules = id === undefined ? [] : rules.filter((r) => r.id !== id);
      rearm();
      return before - rules.length;
    },
    decide(method, url, tenantId) {
      const key = `${method} ${url}`;
      for (const rule of rules) {
        if (rule.route !== '*' && routeKey(rule.route) !== key) continue;
        if (rule.tenant_id !== null && rule.tenant_id !== tenantId) continue;
        if (!fires(rule, stream)) continue;
        rule.fired++;
        const e = rule.effect;
        const delayMs = e.type !== 'latency' ? 0 : (e.ms ?? stream.int(e.min_ms!, e.max_ms!));
        return { ruleId: rule.id, effect: e, delayMs };
      }
      return null;
    },
    reset(newSeed, limit) {
      rules = [];
      counter = 0;
      stream = new Prng(hash32('faults', newSeed));
      log.clear();
      if (limit !== undefined) rateLimit.set(limit);
      rearm();
    },
  };
  function rearm(): void {
    (engine as { armed: boolean }).armed = rules.length > 0 || rateLimit.spec() !== null || log.isOpen();
  }
  rateLimit.onChange(rearm);
  log.onChange(rearm);
  rearm();
  return engine;
}
