/**
 * Whether an owner may take a query's lease: a pure decision over what the head records about the
 * current holder, so both checkpoint stores follow one rule and it can be tested case by case.
 *
 * The rule: the lease is free when nobody holds it, when the holder's lease expired (strictly before
 * now), or when the requester already holds it (a new attempt of the same run renews it). Otherwise
 * it is held, and the caller learns by whom and until when.
 *
 * The DynamoDB store states the same rule as the condition of the UpdateItem that takes the lease,
 * `attribute_not_exists(leaseOwner) OR leaseExpiresAt < :now OR leaseOwner = :owner`, evaluated by
 * DynamoDB on the head item atomically, and checks the head it gets back from a failed condition
 * against this function. The local store records no holder (one writer per checkpoint), so by this
 * rule its lease is always free.
 *
 * The lease is short (30 s by default) so that a crashed holder frees the query soon; a live holder
 * keeps it by renewing. Renewing extends the expiry and keeps the epoch, and only the holder of that
 * epoch may renew: once another owner took the lease (a new epoch), the old holder's renewal is
 * refused and it learns that it lost the lease, and its commit, fenced by the epoch, would be refused
 * too. A holder renews once a third of its lease has passed, so a renewal that fails (throttling, a
 * lost connection) has two more thirds to be retried before the lease lapses.
 */

/** Who holds a query's lease, as the head records it. */
export interface LeaseHolder {
  readonly owner: string;
  /** Clock time (ms) at which the lease expires. */
  readonly expiresAtMs: number;
}

/** The lease may be taken (`acquired`), or another owner holds it until `expiresAtMs` (`held`). */
export type LeaseDecision =
  | { readonly kind: 'acquired' }
  | { readonly kind: 'held'; readonly owner: string; readonly expiresAtMs: number };

/** Whether `owner` may take the lease that `holder` (undefined: nobody) holds, at clock time `nowMs`. */
export function leaseDecision(
  holder: LeaseHolder | undefined,
  owner: string,
  nowMs: number,
): LeaseDecision {
  if (holder === undefined || holder.expiresAtMs < nowMs || holder.owner === owner)
    return { kind: 'acquired' };
  return { kind: 'held', owner: holder.owner, expiresAtMs: holder.expiresAtMs };
}

/** What the head records of the lease a renewal is for: its owner and fencing epoch. */
export interface RecordedLease {
  readonly owner: string | undefined;
  readonly epoch: number | undefined;
}

/**
 * Whether the holder of `lease` (its owner and epoch) may renew it, given what the head records:
 * `renewed` while both are unchanged (even past its expiry: nobody took it, so nobody else may have
 * committed since), `lost` once another owner took it or it was released.
 */
export function leaseRenewalDecision(
  recorded: RecordedLease | undefined,
  lease: { readonly owner: string; readonly epoch: number },
): 'renewed' | 'lost' {
  return recorded?.owner === lease.owner && recorded.epoch === lease.epoch ? 'renewed' : 'lost';
}

/** Whether a holder whose lease of `durationMs` expires at `expiresAtMs` should renew it at `nowMs`. */
export function leaseRenewalDue(expiresAtMs: number, durationMs: number, nowMs: number): boolean {
  return nowMs >= expiresAtMs - (durationMs * 2) / 3;
}
