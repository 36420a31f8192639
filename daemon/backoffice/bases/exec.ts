// What every base's executor is given and answers (daemon/backoffice/action-bases.ts lists them): it
// runs inside the transaction that records the approval, so a refusal (or a throw) changes nothing.
import type { Deps } from '../../deps.js';
import type { Outcome } from '../../contract/outcome.js';

export interface ExecCtx {
  deps: Deps;
  actionId: string;
  reason: string;
}

export type Exec = (ctx: ExecCtx, params: Record<string, unknown>) => Outcome<Record<string, unknown>>;
