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
