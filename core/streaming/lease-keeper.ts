/**
 * Keeps one batch attempt's lease alive while it runs: the lease is short (so that a crashed holder
 * frees the query within seconds), and a live attempt renews it at every protocol step and, during a
 * long step (a big state load, a slow sink write), from a timer every third of the lease.
 *
 * Renewing keeps the fencing epoch (lease-decision.ts), so the commit stays fenced by it: a holder
 * that lost the lease learns so at its next step and stops without writing further, and even one that
 * did not notice (its renewals failing, its process paused) has its commit refused as `lease-lost`.
 *
 * A timer renewal that fails is not dropped: the next step renews again itself and so throws the
 * failure if it persists. A synchronous stretch of work (the plan's execution) delays the timer; the
 * lease must outlast the longest of them, which is why its duration is configurable.
 */
import type { CheckpointStore, Lease } from '../checkpoint/checkpoint-store.js';
import { leaseRenewalDue } from '../checkpoint/lease-decision.js';

/** A batch attempt's lease, renewed while the attempt runs. */
export class LeaseKeeper {
  private lost = false;
  private timerFailure: unknown;
  private renewing: Promise<void> | undefined;
  private readonly timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly checkpoint: CheckpointStore,
    private lease: Lease,
    private readonly durationMs: number,
    private readonly clock: () => number,
  ) {
    if (!checkpoint.renewLease) return;
    this.timer = setInterval(() => {
      this.renewing ??= this.renew()
        .catch((e: unknown) => {
          this.timerFailure = e;
        })
        .finally(() => (this.renewing = undefined));
    }, durationMs / 3);
    // a pending renewal must not keep a process alive that has nothing else to do
    this.timer.unref?.();
  }

  /** The lease as last renewed: the same owner and epoch, a later expiry. */
  get current(): Lease {
    return this.lease;
  }

  /**
   * At a protocol step: renews the lease when it is due (or when a timer renewal failed), and tells
   * whether this attempt still holds it. Throws when the renewal itself fails.
   */
  async stillHeld(): Promise<boolean> {
    await this.renewing;
    const failed = this.timerFailure !== undefined;
    this.timerFailure = undefined;
    if (
      !this.lost &&
      this.checkpoint.renewLease &&
      (failed || leaseRenewalDue(this.lease.expiresAtMs, this.durationMs, this.clock()))
    ) {
      await this.renew();
    }
    return !this.lost;
  }

  /** Stops renewing (the attempt ended); the lease then lasts until it expires or is released. */
  stop(): void {
    clearInterval(this.timer);
  }

  private async renew(): Promise<void> {
    if (this.lost) return;
    const result = await this.checkpoint.renewLease!(this.lease, this.durationMs);
    if (result.kind === 'lost') {
      this.lost = true;
      this.stop();
    } else this.lease = result.lease;
  }
}
