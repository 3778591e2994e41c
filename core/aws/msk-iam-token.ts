/**
 * Amazon MSK's IAM authentication: a token signed (SigV4) with the caller's AWS credentials (in
 * Lambda, the function's role), which kafkajs presents through SASL OAUTHBEARER. A token is valid for
 * 15 minutes; a new one is signed for every broker connection, so a long-lived connection pool
 * never presents an expired one. The signer is loaded on first use only.
 */
import { InvalidOptionError } from '../errors.js';

/** A token for the cluster's `region`, or the environment's (AWS_REGION) when undefined. */
export async function mskIamToken(region: string | undefined): Promise<string> {
  const resolved = region ?? process.env.AWS_REGION ?? process.env.AWS_DEFAULT_REGION;
  if (!resolved) {
    throw new InvalidOptionError(
      "kafka.sasl.mechanism AWS_MSK_IAM needs the cluster's region: set option kafka.sasl.aws.region (e.g. eu-west-1), or the environment variable AWS_REGION.",
    );
  }
  const { generateAuthToken } = await import('aws-msk-iam-sasl-signer-js');
  const { token } = await generateAuthToken({ region: resolved });
  return token;
}
