/**
 * Locations given as URLs, such as `s3://bucket/prefix`, resolved to ObjectStores by the resolver
 * the session was created with for the URL's scheme. The engine knows no storage service: a
 * resolver for S3 comes from the AWS adapter (`s3ObjectStores` in core/aws).
 */
import type { ObjectStore } from '../checkpoint/object-store.js';
import type { ObjectStoreResolvers } from '../checkpoint/object-store-resolver.js';
import { InvalidOptionError } from '../errors.js';

const URL = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/]*)\/?(.*)$/;
const SCHEME = /^[a-z][a-z0-9+.-]*$/;

/** The resolvers of one session. */
export class ObjectStoreUrls {
  private readonly resolvers: ObjectStoreResolvers;

  /** Checks the resolvers: scheme names in lower case, each a function. */
  constructor(resolvers: ObjectStoreResolvers = {}) {
    for (const [scheme, resolver] of Object.entries(resolvers)) {
      if (!SCHEME.test(scheme) || typeof resolver !== 'function') {
        throw new InvalidOptionError(
          `Session option objectStores.${scheme} must map a lower-case URL scheme (such as 's3') to a function (bucket, prefix) => ObjectStore, e.g. s3ObjectStores({ client }).`,
        );
      }
    }
    this.resolvers = resolvers;
  }

  /** True when `location` is a URL with a scheme (`s3://...`) rather than a local path. */
  static isUrl(location: string): boolean {
    return URL.test(location);
  }

  /** The store `url` names; throws InvalidOptionError when no resolver serves its scheme. */
  resolve(url: string): ObjectStore {
    const match = URL.exec(url);
    if (!match) {
      throw new InvalidOptionError(
        `'${url}' is not a URL such as s3://bucket/prefix; give a local path or a URL.`,
      );
    }
    const [, scheme, bucket, prefix] = match;
    const resolver = this.resolvers[scheme.toLowerCase()];
    if (!resolver) {
      throw new InvalidOptionError(
        `No object store is registered for ${scheme}:// URLs such as '${url}'. Create the session with one: new SluiceSession({ objectStores: { ${scheme.toLowerCase()}: ... } }) (for S3: s3ObjectStores({ client })).`,
      );
    }
    return resolver(bucket, prefix);
  }
}
