/**
 * The part of s3rver's API the test setup uses (the package ships no types).
 */
declare module 's3rver' {
  import type { AddressInfo } from 'node:net';

  /** Options of an in-process S3 server. */
  interface S3rverOptions {
    /** Interface to listen on. */
    address?: string;
    /** Port; 0 picks a free one. */
    port?: number;
    /** No request or error logging. */
    silent?: boolean;
    /** Where buckets and objects are kept. */
    directory?: string;
  }

  /** An S3-compatible HTTP server backed by a directory. */
  export default class S3rver {
    constructor(options: S3rverOptions);
    /** Starts listening; resolves with the bound address. */
    run(): Promise<AddressInfo>;
    /** Stops listening. */
    close(): Promise<void>;
  }
}
