/**
 * The AWS part of a function bundle's environment when it runs against the local services (in a
 * LambdaContainer): the SDK's endpoint variables point at DynamoDB Local and s3rver (or relays in
 * front of them), with the dummy credentials and the region the tests' own clients use, and the
 * variables the Lambda runtime sets. The function's own configuration (SLUICE_*) is the caller's.
 */

/** Where the function's AWS clients go. */
export interface LocalEndpoints {
  readonly dynamoDb: string;
  readonly s3: string;
}

/** The environment variables for `endpoints`. */
export function localLambdaEnvironment(endpoints: LocalEndpoints): Record<string, string> {
  return {
    AWS_ENDPOINT_URL_DYNAMODB: endpoints.dynamoDb,
    AWS_ENDPOINT_URL_S3: endpoints.s3,
    // s3rver serves buckets by path, not by virtual host
    SLUICE_S3_FORCE_PATH_STYLE: 'true',
    // s3rver verifies signatures with its one built-in key pair; DynamoDB Local takes any
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    AWS_REGION: 'us-east-1',
    // s3rver would store the SDK's aws-chunked checksum framing as part of an object
    AWS_REQUEST_CHECKSUM_CALCULATION: 'WHEN_REQUIRED',
    AWS_RESPONSE_CHECKSUM_VALIDATION: 'WHEN_REQUIRED',
    // never the instance metadata service, nor a developer's ~/.aws files
    AWS_EC2_METADATA_DISABLED: 'true',
    AWS_CONFIG_FILE: '/nonexistent/sluice-tests/config',
    AWS_SHARED_CREDENTIALS_FILE: '/nonexistent/sluice-tests/credentials',
    // what the Lambda runtime sets for an on-demand function
    AWS_LAMBDA_FUNCTION_NAME: 'sluice-clickstream',
    AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1024',
    AWS_LAMBDA_INITIALIZATION_TYPE: 'on-demand',
  };
}
