/**
 * A bound on how long a call to the cluster may take. A broker that hangs (its connection open, its
 * requests unanswered) would otherwise hold a paid invocation until kafkajs's own timeouts and
 * retries run out, and then fail in ways that name no broker. The call itself is not cancelled
 * (kafkajs has no way to): it ends on its own later, and its outcome is dropped.
 */

/**
 * `call`'s outcome, or the error `timedOut` makes once `ms` have passed without one; a late outcome
 * of `call` is ignored.
 */
export function withinDeadline<T>(call: Promise<T>, ms: number, timedOut: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(timedOut()), ms);
  });
  call.catch(() => {}); // an abandoned call's failure has nobody left to report to
  return Promise.race([call, deadline]).finally(() => clearTimeout(timer));
}
