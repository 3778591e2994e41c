/**
 * What a Lambda function in a VPC needs to attach to it: the actions of AWS's
 * `AWSLambdaVPCAccessExecutionRole`, written out so the role carries no managed policy. Lambda
 * manages the interfaces itself and the describe calls have no resource-level permissions, so the
 * resource is `*`; the caller acknowledges that to cdk-nag.
 */
import * as iam from 'aws-cdk-lib/aws-iam';

/** The EC2 network-interface actions Lambda uses to place a function in a VPC. */
export const VPC_NETWORK_ACTIONS = [
  'ec2:CreateNetworkInterface',
  'ec2:DescribeNetworkInterfaces',
  'ec2:DescribeSubnets',
  'ec2:DeleteNetworkInterface',
  'ec2:AssignPrivateIpAddresses',
  'ec2:UnassignPrivateIpAddresses',
] as const;

/** The statement that lets Lambda manage the function's network interfaces. */
export function vpcNetworkStatement(): iam.PolicyStatement {
  return new iam.PolicyStatement({ actions: [...VPC_NETWORK_ACTIONS], resources: ['*'] });
}
