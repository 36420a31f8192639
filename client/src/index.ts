// @svc/client: a typed client of the svc sandbox API (the repo's docs/client.md).
export { SvcClient, type ClientOptions, type TenantResources } from './client.js';
export { fillPath, queryString, type Requester, type RouteCall } from './resources.js';
export { OperatorClient, BackOffice, DealerDesk, type OperatorOptions } from './operator.js';
export { Sandbox, parseFrame, type SandboxEvent, type EventsOptions } from './sandbox.js';
export { SvcError, SvcConnectionError, isSvcError, type ErrorCode } from './errors.js';
export type { Attempt, CallOptions, CoreOptions, Credentials, RawCall, Answer } from './http.js';
export { Core } from './http.js';
export {
  DEFAULT_RETRY,
  RETRY_STATUSES,
  backoffMs,
  retryAfterMs,
  systemClock,
  type Clock,
  type RetryPolicy,
} from './retry.js';
export { fetchTransport, type Transport, type TransportRequest, type TransportResponse } from './transport.js';
export { signV1, stringToSign, splitPath, tenantAuthFor, type SignInput } from './signing.js';
export { totp, hotp, totpStep, base32Decode, TOTP_PERIOD_S } from './totp.js';
export { egpToMicros, microsToEgp, type Rounding } from './money.js';
export { parseJson, quoteBigIntegers, BIG_INTEGER_KEYS, type Exact } from './json.js';
export { WaitError, Waiters, poll, type WaitOptions, type ClockAdvance } from './wait.js';
export { TENANT_ROUTES } from './routes.js';
export type { BodyOf, MethodOf, OkOf, Op, Paths, PathsUnder, QueryOf, RequestInput, Verb, VerbsOf } from './typed.js';
export type { components, paths, operations } from './generated/api.js';
