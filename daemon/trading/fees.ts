// Per-side trading fees: the rules are in daemon/contract/fees.ts (shared with the CLI, which shows
// them before an order is placed); the daemon's schedule is read from fixtures/fees.json here.
import { readFixture } from '../fixtures.js';
import { feeScheduleOf, type FeeSchedule, type FeesFixture } from '../contract/fees.js';

export {
  FEE_LINE_KEYS,
  feeCeiling,
  feesOnly,
  fillFees,
  orderFees,
  totalCharges,
  type FeeLines,
  type FeeSchedule,
} from '../contract/fees.js';

export function loadFeeSchedule(): FeeSchedule {
  return feeScheduleOf(readFixture<FeesFixture>('fees.json'));
}
