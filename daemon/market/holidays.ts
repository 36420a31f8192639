// The exchange's named closures (fixtures/holidays.json): the days the calendar skips besides the
// weekend, with their English and Arabic names. Read once; the fixture never changes while running.
import { readFixture } from '../fixtures.js';

export interface Holiday {
  date: string;
  name: string;
  name_ar: string;
  status: string;
}

let cached: Holiday[] | undefined;

/** Every closure of the fixture, in date order. */
export function exchangeHolidays(): Holiday[] {
  cached ??= readFixture<{ holidays: Holiday[] }>('holidays.json')
    .holidays.map((h) => ({ date: h.date, name: h.name, name_ar: h.name_ar, status: h.status }))
    .sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  return cached;
}

/** The closures from `start` to `end` (YYYY-MM-DD, both inclusive). */
export function holidaysBetween(start: string, end: string): Holiday[] {
  return exchangeHolidays().filter((h) => h.date >= start && h.date <= end);
}
