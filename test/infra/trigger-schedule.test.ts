/**
 * How a trigger interval becomes a schedule: a minute or more is the schedule's own rate; less runs
 * inside a one-minute schedule, and must divide the minute.
 */
import { Duration } from 'aws-cdk-lib';
import { describe, expect, it } from 'vitest';
import { InvalidOptionError } from '../../core/errors.js';
import { parseDuration } from '../../core/types/duration.js';
import { intervalSetting, triggerSchedule } from '../../infra/trigger-schedule.js';

describe('triggerSchedule', () => {
  it.each([1, 5, 10, 15, 20, 30])('runs a %i-second trigger inside a one-minute schedule', (s) => {
    const schedule = triggerSchedule(Duration.seconds(s));
    expect(schedule.scheduleInterval.toSeconds()).toBe(60);
    expect(schedule.triggerInterval.toSeconds()).toBe(s);
  });

  it.each([
    [Duration.minutes(1), 60],
    [Duration.seconds(120), 120],
    [Duration.minutes(15), 900],
    [Duration.hours(1), 3600],
    [Duration.days(1), 86_400],
  ])('makes a trigger of %s the schedule rate', (trigger, seconds) => {
    const schedule = triggerSchedule(trigger);
    expect(schedule.scheduleInterval.toSeconds()).toBe(seconds);
    expect(schedule.triggerInterval.toSeconds()).toBe(seconds);
  });

  it.each([7, 45, 25])('refuses %i seconds, which does not divide a minute', (s) => {
    expect(() => triggerSchedule(Duration.seconds(s))).toThrow(/does not divide a minute/);
  });

  it.each([Duration.seconds(90), Duration.seconds(61), Duration.days(2)])(
    'refuses %s, which is no whole number of minutes up to a day',
    (trigger) => {
      expect(() => triggerSchedule(trigger)).toThrow(InvalidOptionError);
      expect(() => triggerSchedule(trigger)).toThrow(/whole minutes/);
    },
  );

  it('refuses sub-second and fractional triggers', () => {
    expect(() => triggerSchedule(Duration.millis(500))).toThrow(/whole number of seconds/);
    expect(() => triggerSchedule(Duration.millis(1500))).toThrow(/whole number of seconds/);
  });
});

describe('intervalSetting', () => {
  it.each([Duration.seconds(10), Duration.minutes(1), Duration.hours(2)])(
    'writes %s as an interval the function parses back to the same length',
    (interval) => {
      const text = intervalSetting(interval);
      expect(parseDuration(text, 'interval') / 1000).toBe(interval.toMilliseconds());
    },
  );
});
