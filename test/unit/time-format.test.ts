import { it, expect } from 'vitest';
// toIso is hand-formatted for speed (every response carries timestamps); luxon is the reference.
import { DateTime } from 'luxon';
import { createCalendar } from '../../daemon/market/calendar.js';
it('toIso formats RFC 3339 with the Africa/Cairo offset exactly as luxon does, across DST changes 2025-2027', () => {
  const cal = createCalendar({
    zone: 'Africa/Cairo',
    weekend: [5, 6],
    open: '10:00',
    close: '14:30',
    shortSessions: [],
    holidays: [],
  });
  for (
    let ms = Date.parse('2025-01-01T00:00:00Z');
    ms < Date.parse('2028-01-01T00:00:00Z');
    ms += 3_600_000 * 7 + 61_001
  ) {
    expect(cal.toIso(ms)).toBe(DateTime.fromMillis(ms, { zone: 'Africa/Cairo' }).toFormat("yyyy-MM-dd'T'HH:mm:ssZZ"));
  }
});
