/**
 * Access to the objects under one key prefix of a bucket, and to listing that prefix only:
 * object actions on `<bucket>/<prefix>*`, and `s3:ListBucket` on the bucket with an `s3:prefix`
 * condition. The object wildcard is inherent to a prefix grant, so it is acknowledged to cdk-nag
 * with the reason the caller gives.
 */
import { Aws } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import { acknowledgeWildcardResource } from './wildcard-acknowledgement.js';

/** One prefix grant. */
export interface S3PrefixAccess {
  /** The bucket's ARN. */
  readonly bucketArn: string;
  /** The key prefix, used exactly as S3 matches prefixes: `path/` for a folder; '' for the whole bucket. */
  readonly prefix: string;
  /** Object actions, e.g. `s3:GetObject`. */
  readonly actions: readonly string[];
  /** Why the role needs every object under the prefix (the cdk-nag acknowledgement). */
  readonly reason: string;
}

/** The ARN of a bucket known by name. */
export function bucketArnOf(bucketName: string): string {
  return `arn:${Aws.PARTITION}:s3:::${bucketName}`;
}

/** The key prefix S3ObjectStore uses for a path: `a/b/` for `a/b` or `a/b/`; '' for the whole bucket. */
export function folderPrefix(path: string): string {
  const trimmed = path.replace(/^\/+|\/+$/g, '');
  return trimmed === '' ? '' : `${trimmed}/`;
}

/** Grants `role` the actions under the prefix and listing of the prefix. */
export function grantS3Prefix(role: iam.Role, access: S3PrefixAccess): void {
  const objects = `${access.bucketArn}/${access.prefix}*`;
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({ actions: [...access.actions], resources: [objects] }),
  );
  role.addToPrincipalPolicy(
    new iam.PolicyStatement({
      actions: ['s3:ListBucket'],
      resources: [access.bucketArn],
      conditions:
        access.prefix === '' ? undefined : { StringLike: { 's3:prefix': [`${access.prefix}*`] } },
    }),
  );
  acknowledgeWildcardResource(role, objects, access.reason);
}
