/**
 * CrashInjector: counts the crash points a run passes and kills the run at point k, so a test can
 * crash a query at every awaited I/O call it makes rather than after whole protocol steps.
 *
 * A crash point is one side of one awaited I/O call: every call wrapped by a crashing decorator
 * (crashingObjectStore, crashingCheckpointStore, crashingSink, ...) passes two points, one before
 * the request leaves (the call never happens) and one after its answer came back (the call took
 * effect, the process died before it learned so). Points are numbered from 0 in the order the run
 * passes them; a run without a crash tells how many there are, so a harness can crash at each.
 *
 * After the crash the injector stays dead: every later call through any decorator of this injector
 * throws the same InjectedCrashPoint, as nothing runs in a killed process. That matters where the
 * code under test catches errors (a best-effort Delta checkpoint, a lease release in `finally`):
 * the crash must not be survivable. Instead of throwing, `crashAt` can also SIGKILL the process
 * (`onCrash`), or `pauseAt` can hold the call until `resume()`, as a container frozen mid-call.
 */
import { SluiceError } from '../errors.js';

/** The crash an injector makes its run meet at its chosen point, and at every point after it. */
export class InjectedCrashPoint extends SluiceError {
  constructor(
    /** The point, numbered from 0 in the order the run passed them. */
    readonly point: number,
    /** The call and side, e.g. `state.put(offsets/3) after`. */
    readonly label: string,
  ) {
    super(
      'INJECTED_CRASH_POINT',
      `Crash injected at crash point ${point} (${label}) by a CrashInjector; start the query again on the same checkpoint to recover.`,
    );
  }
}

/** Where an injector kills or holds its run. */
export interface CrashInjectorOptions {
  /** The point at which the run crashes. @default never */
  readonly crashAt?: number;
  /** Called at the crash point before the crash is thrown (e.g. to SIGKILL the process). */
  readonly onCrash?: (point: number, label: string) => void;
  /** The point at which the call is held until `resume()`. @default never */
  readonly pauseAt?: number;
}

/** Counts crash points and crashes (or pauses) at the chosen one. */
export class CrashInjector {
  private passed = 0;
  private crash: InjectedCrashPoint | undefined;
  private release: (() => void) | undefined;
  private readonly held: Promise<void>;
  private pausedAt: (() => void) | undefined;
  /** Resolves once the run reaches `pauseAt` (never without one). */
  readonly paused: Promise<void>;

  constructor(private readonly options: CrashInjectorOptions = {}) {
    this.held = new Promise((resolve) => (this.release = resolve));
    this.paused = new Promise((resolve) => (this.pausedAt = resolve));
  }

  /** How many points the run has passed so far. */
  get points(): number {
    return this.passed;
  }

  /** The crash the run met, if it met one. */
  get crashed(): InjectedCrashPoint | undefined {
    return this.crash;
  }

  /** Lets a call held at `pauseAt` go on. */
  resume(): void {
    this.release?.();
  }

  /** Runs one awaited I/O call between its two crash points. */
  async around<T>(label: string, call: () => Promise<T>): Promise<T> {
    await this.pass(`${label} before`);
    const result = await call();
    await this.pass(`${label} after`);
    return result;
  }

  /** Passes one point: crashes there, or holds there, or goes on. */
  private async pass(label: string): Promise<void> {
    if (this.crash) throw this.crash;
    const point = this.passed++;
    if (point === this.options.pauseAt) {
      this.pausedAt?.();
      await this.held;
    }
    if (point !== this.options.crashAt) return;
    this.options.onCrash?.(point, label);
    this.crash = new InjectedCrashPoint(point, label);
    throw this.crash;
  }
}
