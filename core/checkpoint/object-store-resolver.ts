/**
 * How a location given as a URL (`s3://bucket/prefix`) becomes an ObjectStore: a resolver per URL
 * scheme, given to the session. The engine knows no storage service; a storage adapter (core/aws's
 * `s3ObjectStores`) provides the resolver and the session's ObjectStoreUrls applies it.
 */
import type { ObjectStore } from './object-store.js';

/** Makes the store for a URL's bucket (its authority) and key prefix (its path, without the leading '/'). */
export type ObjectStoreResolver = (bucket: string, prefix: string) => ObjectStore;

/** Resolvers by URL scheme, e.g. `{ s3: s3ObjectStores({ client }) }`. */
export type ObjectStoreResolvers = Readonly<Record<string, ObjectStoreResolver>>;
