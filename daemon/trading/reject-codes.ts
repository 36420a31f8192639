// The order reject-code registry (fixtures/reject-codes.json): every reason code an order answer or
// an order's reason_code can carry, with a neutral cause and remedy. The assistant's order explainer
// and docs/errors.md read it; a dealer's rejection must name one of its dealer reasons.
import { readFixture } from '../fixtures.js';

export type RejectOrigin = 'validation' | 'execution' | 'client' | 'desk';

export interface RejectCode {
  code: string;
  origin: RejectOrigin;
  dealer_reason: boolean;
  cause: string;
  remedy: string;
}

export function rejectCodes(): readonly RejectCode[] {
  return readFixture<{ codes: RejectCode[] }>('reject-codes.json').codes;
}

export function findRejectCode(code: string): RejectCode | null {
  return rejectCodes().find((c) => c.code === code) ?? null;
}

export function dealerReasons(): string[] {
  return rejectCodes()
    .filter((c) => c.dealer_reason)
    .map((c) => c.code);
}
