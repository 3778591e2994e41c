/**
 * Which state store a piece of state belongs to: a stateful operator (by its stable id, its position
 * in the plan) and one of its named stores, as Spark's `StateStoreId` names them. An operator that
 * needs one map uses the store `default`; a join keeps several (each side's keys and values).
 *
 * A store's name is part of where its files live and of the manifest entry that lists them, so it
 * is fixed forever once a checkpoint holds it. The default store keeps the names checkpoints used
 * before stores had names (`state/<operator>/<partition>/...`, manifest entry `<operator>`), so
 * those checkpoints read on.
 */
import { ExecutionError } from '../errors.js';

/** The store an operator uses when it needs only one. */
export const DEFAULT_STORE_NAME = 'default';

/** One named state store of one stateful operator. */
export interface StateStoreId {
  readonly operatorId: number;
  readonly storeName: string;
}

const STORE_NAME = /^[A-Za-z][A-Za-z0-9_-]{0,63}$/;

/** The id of `operatorId`'s store `storeName`, checked: a name must be safe in an object key. */
export function stateStoreId(operatorId: number, storeName = DEFAULT_STORE_NAME): StateStoreId {
  if (!Number.isInteger(operatorId) || operatorId < 0) {
    throw new ExecutionError(`Internal error: stateful operator id ${operatorId} is not an index.`);
  }
  if (!STORE_NAME.test(storeName)) {
    throw new ExecutionError(
      `Internal error: state store name '${storeName}' must be a letter followed by at most 63 letters, digits, '_' or '-'.`,
    );
  }
  return { operatorId, storeName };
}

/** The store's entry in a state manifest: `<operator>` for the default store, else `<operator>/<store>`. */
export function manifestEntry(id: StateStoreId): string {
  return id.storeName === DEFAULT_STORE_NAME
    ? String(id.operatorId)
    : `${id.operatorId}/${id.storeName}`;
}

/** The store a manifest entry names (the inverse of `manifestEntry`). */
export function storeIdOfEntry(entry: string): StateStoreId {
  const slash = entry.indexOf('/');
  return slash < 0
    ? stateStoreId(Number(entry))
    : stateStoreId(Number(entry.slice(0, slash)), entry.slice(slash + 1));
}

/** How a store is named in messages: `operator 0 store 'default'`. */
export function describeStore(id: StateStoreId): string {
  return `operator ${id.operatorId} store '${id.storeName}'`;
}
