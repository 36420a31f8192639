// What every onboarding function works with: the dependencies it uses and the onboarding repository,
// built once per service (daemon/onboarding/service.ts).
import type { Deps } from '../deps.js';
import type { Operator } from '../contract/route.js';
import type { OnboardingRepo } from './repo.js';

export type OnboardingDeps = Pick<Deps, 'db' | 'ids' | 'keys' | 'audit' | 'clock' | 'market' | 'investors' | 'nowIso'>;

export interface OnboardingCtx extends OnboardingDeps {
  repo: OnboardingRepo;
}

/**
 * The operator acting at the dealer desk or the back office: its name for the audit log, and the broker
 * whose applications and accounts it sees (null: every broker, i.e. the back office).
 */
export type Reviewer = Pick<Operator, 'name' | 'brokerId'>;
