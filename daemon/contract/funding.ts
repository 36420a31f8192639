// Wire constants of transfers and the funding desk, shared by the daemon and the CLI.
export const TRANSFER_DIRECTIONS = ['deposit', 'withdrawal'] as const;
export const TRANSFER_STATES = ['received', 'pending_rail', 'at_broker', 'completed', 'failed'] as const;
export const TRANSFER_FINAL_STATES = ['completed', 'failed'] as const;
export const TRANSFER_APPROVALS = ['automatic', 'pending', 'approved', 'rejected'] as const;

/** Reasons a dealer may give for rejecting a transfer (the failed transfer's reason_code). */
export const FUNDING_REJECT_REASONS = [
  'SOURCE_OF_FUNDS_UNVERIFIED',
  'NAME_MISMATCH',
  'AML_REVIEW',
  'LIMIT_POLICY',
  'DEALER_REJECTED',
] as const;

export const TRANSFER_LIMIT_MICROS = 70_000_000_000;
export const DAILY_TRANSFER_LIMIT_MICROS = 200_000_000_000;
/** The sandbox magic amount: exactly 666 EGP fails at the payment rail (reason_code RAIL_REJECTED). */
export const RAIL_FAILURE_MICROS = 666_000_000;
/** Each rail step takes one simulated minute: a transfer completes three minutes after it starts. */
export const RAIL_STEP_MS = 60_000;
