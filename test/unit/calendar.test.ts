import { describe, it, expect } from 'vitest';
import { addDays, epochDay } from '../../daemon/market/calendar/dates.js';
import { createCalendar, type CalendarParams } from '../../daemon/market/calendar.js';

const Z = (iso: string) => Date.parse(iso);

const params: CalendarParams = {
  zone: 'Africa/Cairo',
  weekend: [5, 6],
  open: '10:00',
  close: '14:30',
  shortSessions: [{ from: '2026-02-18', to: '2026-03-18', open: '10:00', close: '13:30' }],
  holidays: ['2026-10-08', '2026-01-07', '2026-05-01'],
};
const cal = createCalendar(params);

describe('Cairo DST: sessions are 10:00-14:30 local whatever the offset', () => {
  it('Thu 23 Apr 2026 (winter time, UTC+2) opens 08:00Z', () => {
    expect(cal.session('2026-04-23')).toMatchObject({
      openMs: Z('2026-04-23T08:00:00Z'),
      closeMs: Z('2026-04-23T12:30:00Z'),
    });
  });
  it('Sun 26 Apr 2026 (summer time from Fri 24 Apr, UTC+3) opens 07:00Z', () => {
    expect(cal.session('2026-04-26')!.openMs).toBe(Z('2026-04-26T07:00:00Z'));
  });
  it('Thu 29 Oct 2026 is still summer time (opens 07:00Z); Sun 1 Nov 2026 is winter time (opens 08:00Z)', () => {
    expect(cal.session('2026-10-29')!.openMs).toBe(Z('2026-10-29T07:00:00Z'));
    expect(cal.session('2026-11-01')!.openMs).toBe(Z('2026-11-01T08:00:00Z'));
  });
  it('toIso carries the offset in force at that instant, to the second', () => {
    expect(cal.toIso(Z('2026-11-22T08:00:00.750Z'))).toBe('2026-11-22T10:00:00+02:00');
    expect(cal.toIso(Z('2026-06-01T07:00:00Z'))).toBe('2026-06-01T10:00:00+03:00');
  });
  it('localDate follows the zone across midnight', () => {
    expect(cal.localDate(Z('2026-06-01T21:30:00Z'))).toBe('2026-06-02');
    expect(cal.localDate(Z('2026-12-01T21:30:00Z'))).toBe('2026-12-01');
    expect(cal.localDate(Z('2026-12-01T22:00:00Z'))).toBe('2026-12-02');
  });
});

describe('trading days are Sunday to Thursday, minus holidays', () => {
  it('Friday and Saturday do not trade; Sunday does', () => {
    expect(cal.isTradingDay('2026-11-27')).toBe(false);
    expect(cal.isTradingDay('2026-11-28')).toBe(false);
    expect(cal.isTradingDay('2026-11-29')).toBe(true);
    expect(cal.session('2026-11-27')).toBeNull();
  });
  it('a holiday has no session', () => {
    expect(cal.isTradingDay('2026-10-08')).toBe(false);
    expect(cal.session('2026-10-08')).toBeNull();
  });
  it('prev and next trading day skip the weekend and holidays', () => {
    expect(cal.nextTradingDay('2026-10-07')).toBe('2026-10-11');
    expect(cal.prevTradingDay('2026-10-11')).toBe('2026-10-07');
    expect(cal.prevTradingDay('2026-11-29')).toBe('2026-11-26');
  });
  it('a short session (Ramadan) closes at 13:30 and has 210 minutes', () => {
    expect(cal.session('2026-03-02')).toMatchObject({ open: '10:00', close: '13:30' });
    expect(cal.sessionMinutes('2026-03-02')).toBe(210);
    expect(cal.sessionMinutes('2026-11-22')).toBe(270);
    expect(cal.sessionMinutes('2026-11-27')).toBe(0);
  });
  it('tradingDayNumber advances by exactly one per trading day, across weekends and holidays', () => {
    let d = '2026-01-01';
    for (let i = 0; i < 400; i++) {
      const next = cal.nextTradingDay(d);
      if (cal.isTradingDay(d)) expect(cal.tradingDayNumber(next)).toBe(cal.tradingDayNumber(d) + 1);
      d = next;
    }
  });
});

describe('settlement is T+2 business days', () => {
  it('Wednesday settles Sunday (across the weekend)', () => {
    expect(cal.settlementDate('2026-11-04')).toBe('2026-11-08');
  });
  it('Thursday settles Monday', () => {
    expect(cal.settlementDate('2026-11-05')).toBe('2026-11-09');
  });
  it('Tuesday before a Thursday holiday settles Sunday (across the holiday and the weekend)', () => {
    expect(cal.settlementDate('2026-10-06')).toBe('2026-10-11');
  });
  it('addTradingDays(date, 0) is the date itself when it trades, else the next trading day', () => {
    expect(cal.addTradingDays('2026-11-22', 0)).toBe('2026-11-22');
    expect(cal.addTradingDays('2026-11-27', 0)).toBe('2026-11-29');
    expect(cal.addTradingDays('2026-11-22', 5)).toBe('2026-11-29');
  });
});

describe('clock answers: isOpen, nextOpen, nextClose, minuteIndex', () => {
  const inSession = Z('2026-11-22T09:00:00Z'); // Sun 11:00 Cairo
  it('inside a session: open, next open is tomorrow, next close is today', () => {
    expect(cal.isOpen(inSession)).toBe(true);
    expect(cal.nextOpen(inSession)).toBe(Z('2026-11-23T08:00:00Z'));
    expect(cal.nextClose(inSession)).toBe(Z('2026-11-22T12:30:00Z'));
    expect(cal.minuteIndex(inSession)).toBe(60);
  });
  it('before the open: next open and next close are today', () => {
    const early = Z('2026-11-22T06:00:00Z');
    expect(cal.isOpen(early)).toBe(false);
    expect(cal.nextOpen(early)).toBe(Z('2026-11-22T08:00:00Z'));
    expect(cal.nextClose(early)).toBe(Z('2026-11-22T12:30:00Z'));
    expect(cal.minuteIndex(early)).toBeNull();
  });
  it('open is inclusive and close exclusive; nextOpen is strictly after', () => {
    const open = Z('2026-11-22T08:00:00Z');
    const close = Z('2026-11-22T12:30:00Z');
    expect(cal.isOpen(open)).toBe(true);
    expect(cal.minuteIndex(open)).toBe(0);
    expect(cal.nextOpen(open)).toBe(Z('2026-11-23T08:00:00Z'));
    expect(cal.isOpen(close)).toBe(false);
    expect(cal.minuteIndex(close - 1)).toBe(269);
    expect(cal.nextClose(close)).toBe(Z('2026-11-23T12:30:00Z'));
  });
  it('after Thursday close: next open and close are on Sunday', () => {
    const thuEvening = Z('2026-11-26T13:00:00Z');
    expect(cal.nextOpen(thuEvening)).toBe(Z('2026-11-29T08:00:00Z'));
    expect(cal.nextClose(thuEvening)).toBe(Z('2026-11-29T12:30:00Z'));
    expect(cal.sessionDateFor(thuEvening)).toBe('2026-11-29');
  });
});

describe('GET /v1/calendar rows', () => {
  it('lists trading days only, with HH:MM and HHMM times and the settlement date', () => {
    const rows = cal.rows('2026-10-05', '2026-10-11');
    expect(rows.map((r) => r.date)).toEqual(['2026-10-05', '2026-10-06', '2026-10-07', '2026-10-11']);
    expect(rows[1]).toEqual({
      date: '2026-10-06',
      open: '10:00',
      close: '14:30',
      session_open: '1000',
      session_close: '1430',
      settlement_date: '2026-10-11',
    });
  });
  it('an empty range gives no rows', () => {
    expect(cal.rows('2026-10-10', '2026-10-09')).toEqual([]);
  });
});

describe('configuration errors are refused', () => {
  it('an unknown zone, a bad time, a bad date', () => {
    expect(() => createCalendar({ ...params, zone: 'Mars/Olympus' })).toThrow();
    expect(() => createCalendar({ ...params, open: '25:00' })).toThrow();
    expect(() => cal.isTradingDay('2026-02-30')).toThrow();
  });
});

describe('calendar dates are day numbers (dates.ts)', () => {
  it('a YYYY-MM-DD date is its days since 1970-01-01, the same on every call; a date that does not exist is refused every time', () => {
    expect(epochDay('1970-01-01')).toBe(0);
    expect(epochDay('2026-11-24')).toBe(20_781);
    expect(epochDay('2026-11-24')).toBe(20_781);
    expect(addDays('2026-11-24', 7)).toBe('2026-12-01');
    for (let i = 0; i < 2; i++) {
      expect(() => epochDay('2026-02-30')).toThrow(/not a calendar date/);
      expect(() => epochDay('2026-11-24T00:00')).toThrow(/not a YYYY-MM-DD date/);
    }
  });
});

describe('date arithmetic is exact for every four-digit year (issue 26: Date.UTC read 0001-0099 as 1901-1999)', () => {
  it('the years 1-99 come before 1899 and step day by day, like any other', () => {
    expect(epochDay('0001-01-01')).toBeLessThan(epochDay('1899-12-31'));
    expect(epochDay('0100-01-01') - epochDay('0099-12-31')).toBe(1);
    expect(addDays('0099-12-31', 1)).toBe('0100-01-01');
    expect(epochDay('1970-01-01')).toBe(0);
    expect(epochDay('2000-02-29') - epochDay('2000-02-28')).toBe(1);
    expect(() => epochDay('1900-02-29')).toThrow(/not a calendar date/);
  });
});
