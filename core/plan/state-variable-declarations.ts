/**
 * What a stateful processor keeps in state, found the way Spark's driver finds it: by running its
 * `init` against a handle that only records the declarations. The result is fixed when the DataFrame
 * is built: it names the state stores the operator opens (one per variable) and is part of the plan
 * fingerprint, so a restart whose processor declares other variables, kinds or types is refused.
 */
import { AnalysisError } from '../errors.js';
import type { OutputMode } from '../sinks/sink.js';
import { type DataType, typeName } from '../types/data-types.js';
import { parseTypeName } from '../types/type-names.js';
import type {
  StatefulProcessor,
  StatefulProcessorHandle,
  TimeMode,
  TTLConfig,
} from './stateful-processor.js';

/** One declared state variable: its kind and the types its values are checked against. */
export interface StateVariableDeclaration {
  readonly name: string;
  readonly kind: 'value' | 'list' | 'map';
  /** value: [value]; list: [element]; map: [key, value]. Undefined: untyped (plain data). */
  readonly types: readonly (DataType | undefined)[];
  /** Time to live of its values, in ms; undefined: none. */
  readonly ttlMs?: number;
}

/**
 * A variable name is also a state store name: letters, digits and `_`, starting with a letter
 * (no `-`, which the operator's own stores use, so the two never collide).
 */
const VARIABLE_NAME = /^[A-Za-z][A-Za-z0-9_]{0,47}$/;

/** The state variables `processor` declares in its `init`; `processorName` names it in errors. */
export function stateVariableDeclarations(
  processor: StatefulProcessor,
  processorName: string,
  timeMode: TimeMode,
  outputMode: OutputMode,
): StateVariableDeclaration[] {
  const declared: StateVariableDeclaration[] = [];
  const declare = (
    name: string,
    kind: StateVariableDeclaration['kind'],
    types: readonly (DataType | string | undefined)[],
    ttl: TTLConfig | undefined,
  ): never => {
    if (!VARIABLE_NAME.test(name)) {
      throw new AnalysisError(
        `Processor ${processorName} declares state variable '${name}': a name must be a letter followed by at most 47 letters, digits or '_'.`,
      );
    }
    if (declared.some((d) => d.name === name)) {
      throw new AnalysisError(
        `Processor ${processorName} declares state variable '${name}' twice; give each variable its own name.`,
      );
    }
    const ttlMs = ttl === undefined ? undefined : checkedTtl(ttl, name, processorName);
    declared.push({ name, kind, types: types.map(resolveType), ...(ttlMs ? { ttlMs } : {}) });
    // init only declares: the variables it gets back are used from the handle of each batch
    return undefined as never;
  };
  const timersInInit = (): never => {
    throw new AnalysisError(
      `Processor ${processorName} uses timers in init(); register timers in handleInputRows, handleExpiredTimer or handleInitialState.`,
    );
  };
  const handle: StatefulProcessorHandle = {
    getValueState: (name, type, ttl) => declare(name, 'value', [type], ttl),
    getListState: (name, type, ttl) => declare(name, 'list', [type], ttl),
    getMapState: (name, keyType, valueType, ttl) => declare(name, 'map', [keyType, valueType], ttl),
    registerTimer: timersInInit,
    deleteTimer: timersInInit,
    listTimers: timersInInit,
  };
  processor.init(handle, timeMode, outputMode);
  processor.close?.();
  return declared;
}

/** `value list<string> ttl 60000 ms`-like text of a declaration, for the plan fingerprint. */
export function declarationText(d: StateVariableDeclaration): string {
  const types = d.types.map((t) => (t ? typeName(t) : 'any')).join(', ');
  return `${d.name}: ${d.kind}<${types}>`;
}

function resolveType(t: DataType | string | undefined): DataType | undefined {
  return typeof t === 'string' ? parseTypeName(t) : t;
}

function checkedTtl(ttl: TTLConfig, name: string, processorName: string): number {
  if (!Number.isSafeInteger(ttl.ttlDurationMs) || ttl.ttlDurationMs <= 0) {
    throw new AnalysisError(
      `Processor ${processorName} declares state variable '${name}' with TTL ${String(ttl.ttlDurationMs)} ms; a TTL must be a positive whole number of milliseconds.`,
    );
  }
  return ttl.ttlDurationMs;
}
