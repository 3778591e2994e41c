/**
 * How a processing-time trigger maps onto EventBridge Scheduler. A schedule ticks at most once a
 * minute, so a trigger of a minute or more is the schedule's own rate (one batch per invocation),
 * and a shorter trigger runs as several batches inside one invocation per minute: the function keeps
 * triggering for the schedule's period. Sub-minute triggers must divide the minute evenly, or the
 * last batch of one period and the first of the next would come closer together than the trigger.
 */
import { Duration, Token } from 'aws-cdk-lib';
import { InvalidOptionError } from '../core/errors.js';

/** The schedule that drives one query's trigger. */
export interface TriggerSchedule {
  /** Time between batch starts. */
  readonly triggerInterval: Duration;
  /** Time between scheduled invocations: the rate of the schedule, at least one minute. */
  readonly scheduleInterval: Duration;
}

const MINUTE_SECONDS = 60;
const MAX_SCHEDULE_SECONDS = 24 * 60 * 60;

/** Derives the schedule of a trigger interval, refusing intervals a rate schedule cannot honour. */
export function triggerSchedule(triggerInterval: Duration): TriggerSchedule {
  if (Token.isUnresolved(triggerInterval.toSeconds({ integral: false }))) {
    throw new InvalidOptionError('triggerInterval must be a literal Duration, not a token.');
  }
  const ms = triggerInterval.toMilliseconds();
  const seconds = ms / 1000;
  if (!Number.isInteger(seconds) || seconds < 1) {
    throw new InvalidOptionError(
      `triggerInterval ${triggerInterval.toHumanString()} is not a whole number of seconds of at least 1; use e.g. Duration.seconds(10).`,
    );
  }
  if (seconds < MINUTE_SECONDS) {
    if (MINUTE_SECONDS % seconds !== 0) {
      throw new InvalidOptionError(
        `triggerInterval ${seconds} seconds does not divide a minute; use 1, 2, 3, 4, 5, 6, 10, 12, 15, 20 or 30 seconds, since the schedule ticks every minute.`,
      );
    }
    return { triggerInterval, scheduleInterval: Duration.minutes(1) };
  }
  if (seconds % MINUTE_SECONDS !== 0 || seconds > MAX_SCHEDULE_SECONDS) {
    throw new InvalidOptionError(
      `triggerInterval ${triggerInterval.toHumanString()} must be whole minutes (at most a day) when it is a minute or longer, since it becomes the schedule's rate.`,
    );
  }
  return { triggerInterval, scheduleInterval: triggerInterval };
}

/** The interval as the function's environment reads it (a Spark interval string). */
export function intervalSetting(interval: Duration): string {
  return `${interval.toSeconds()} seconds`;
}
