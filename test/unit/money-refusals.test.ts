// The amounts of a refusal message (daemon/contract/money.ts): two decimals as people read money, rounded
// so the sentence stays true (what is needed up, what is held down), then the exact micros.
import { describe, expect, it } from 'vitest';
import { egpHeld, egpNeeded } from '../../daemon/contract/money.js';

describe('egpNeeded and egpHeld', () => {
  it('a need of 8,571.8025 EGP reads 8,571.81 (rounded up), with its exact micros', () => {
    expect(egpNeeded(8_571_802_500)).toBe('8,571.81 EGP (8571802500 micros)');
  });

  it('a balance of 8,571.8099 EGP reads 8,571.80 (rounded down): it never claims more than is there', () => {
    expect(egpHeld(8_571_809_900)).toBe('8,571.80 EGP (8571809900 micros)');
  });

  it('whole piastres are shown as they are, with two decimals and thousands grouped', () => {
    expect(egpNeeded(1_234_567_500_000)).toBe('1,234,567.50 EGP (1234567500000 micros)');
    expect(egpHeld(1_234_567_500_000)).toBe('1,234,567.50 EGP (1234567500000 micros)');
    expect(egpHeld(0)).toBe('0.00 EGP (0 micros)');
    expect(egpNeeded(1)).toBe('0.01 EGP (1 micros)');
    expect(egpHeld(1)).toBe('0.00 EGP (1 micros)');
  });

  it('negative amounts round the same way on the number line (up towards zero for a need, down away from it for a balance)', () => {
    expect(egpNeeded(-1_005_000)).toBe('-1.00 EGP (-1005000 micros)');
    expect(egpHeld(-1_005_000)).toBe('-1.01 EGP (-1005000 micros)');
  });
});
