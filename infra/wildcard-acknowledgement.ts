/**
 * Acknowledging one cdk-nag `AwsSolutions-IAM5` finding (a wildcard resource) with its reason, for
 * one principal only. cdk-nag v3 names a finding after the resource as it appears in the template,
 * with references flattened (`<LogicalId.Arn>`, `<AWS::Partition>`), so the acknowledgement resolves
 * the resource the same way; an acknowledgement that matched nothing would leave the finding
 * unacknowledged, which the cdk-nag test catches.
 */
import { Stack, Validations } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/** Acknowledges the wildcard `resource` in the policies of `principal` (a role), with `reason`. */
export function acknowledgeWildcardResource(
  principal: IConstruct,
  resource: string,
  reason: string,
): void {
  const flat = flattenReference(Stack.of(principal).resolve(resource));
  Validations.of(principal).acknowledge({ id: `AwsSolutions-IAM5[Resource::${flat}]`, reason });
}

/** The flat text cdk-nag gives a resolved CloudFormation value. */
function flattenReference(value: unknown): string {
  if (typeof value === 'string') return value.replace(/\$\{/g, '<').replace(/\}/g, '>');
  const node = value as Record<string, unknown>;
  if (node['Fn::Join']) {
    const [delimiter, items] = node['Fn::Join'] as [string, unknown[]];
    return items.map(flattenReference).join(delimiter);
  }
  if (node['Fn::GetAtt']) {
    const [resource, attribute] = node['Fn::GetAtt'] as [unknown, unknown];
    return `<${flattenReference(resource)}.${flattenReference(attribute)}>`;
  }
  if (node.Ref) return `<${flattenReference(node.Ref)}>`;
  return JSON.stringify(value);
}
