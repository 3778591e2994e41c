/**
 * A tree drawn as text, one node per line, the way Spark's `treeString` draws plans: a node's inputs
 * follow it, indented, `:- ` before every input but the last and `+- ` before the last.
 */

/** A node to draw: its line and its inputs. */
export interface TextTree {
  readonly line: string;
  readonly inputs: readonly TextTree[];
}

/** The lines of `tree`, its root first. */
export function treeLines(tree: TextTree): string[] {
  const lines: string[] = [];
  const draw = (node: TextTree, prefix: string, branch: string) => {
    lines.push(`${prefix}${branch}${node.line}`);
    const below = prefix + (branch === '' ? '' : branch === ':- ' ? ':  ' : '   ');
    node.inputs.forEach((input, i) =>
      draw(input, below, i === node.inputs.length - 1 ? '+- ' : ':- '),
    );
  };
  draw(tree, '', '');
  return lines;
}
