import ts from 'typescript';

/** A variable holding a subgraph, found in an `addNode(name, …)` call of the graph that uses it. */
export interface FoundSubgraph {
  /** The namespace of the graph whose node it is (starting with the export's name). */
  namespace: string[];
  node: string;
  /** The variable's name and its declaration (a variable declaration or an import specifier). */
  variable: { name: string; declaration: ts.Node };
}

interface FlowLike {
  flowNode?: { node?: ts.Node };
}

function descendants(root: ts.Node, visit: (node: ts.Node) => void): void {
  const walk = (node: ts.Node): void => {
    visit(node);
    ts.forEachChild(node, walk);
  };
  ts.forEachChild(root, walk);
}

function unquote(text: string): string {
  return /^(["']).*\1$/s.test(text) ? text.slice(1, -1) : text;
}

/**
 * Finds the subgraphs of an exported graph the way the reference server does, so the same graphs get the same
 * namespaces: `addNode` calls whose node is (or calls, or wraps) a variable typed as a graph, recursively through
 * those variables' initializers; an export built elsewhere (`export const graph = builder.compile()`) is followed
 * through the flow node of the expression.
 */
export class SubgraphFinder {
  constructor(
    private readonly checker: ts.TypeChecker,
    private readonly sourceFile: ts.SourceFile,
    private readonly isGraphType: (type: ts.Type) => boolean,
  ) {}

  /** The subgraphs under export `name` of the source file (the export itself excluded). */
  ofExport(name: string): FoundSubgraph[] {
    const moduleSymbol = this.checker.getSymbolAtLocation(this.sourceFile);
    const exported = moduleSymbol && this.checker.getExportsOfModule(moduleSymbol).find((symbol) => symbol.name === name);
    if (!exported) throw new Error(`Failed to find export "${name}"`);
    return (exported.declarations ?? [])
      .filter(ts.isVariableDeclaration)
      .flatMap((declaration) => (declaration.initializer ? this.find(declaration.initializer, [name]) : []));
  }

  private find(root: ts.Node, namespace: string[]): FoundSubgraph[] {
    let found: FoundSubgraph[] = [];
    descendants(root, (node) => {
      const subgraph = this.addNodeSubgraph(node, namespace);
      if (subgraph) found.push(subgraph);
    });
    if (found.length === 0) {
      const flowTarget = this.lastWithFlowNode(root)?.flowNode?.node;
      if (flowTarget && this.isGraphType(this.checker.getTypeAtLocation(flowTarget))) found = this.find(flowTarget, namespace);
    }
    if (found.length === 0) return found;
    return [...found, ...found.flatMap(({ variable, node }) => this.find(variable.declaration, [...namespace, node]))];
  }

  private addNodeSubgraph(node: ts.Node, namespace: string[]): FoundSubgraph | undefined {
    if (!ts.isCallExpression(node)) return undefined;
    const callee = node.getChildAt(0);
    if (!ts.isPropertyAccessExpression(callee) || callee.name.getText(this.sourceFile) !== 'addNode') return undefined;
    const [nameArg, action] = node.arguments;
    const nodeName = nameArg && ts.isStringLiteralLike(nameArg) ? unquote(nameArg.getText(this.sourceFile)) : 'unknown';
    const variables: FoundSubgraph['variable'][] = [];
    if (action && (ts.isFunctionLike(action) || ts.isCallLikeExpression(action))) descendants(action, (child) => this.collectGraphVariable(child, variables));
    else if (action && ts.isIdentifier(action)) this.collectGraphVariable(action, variables);
    if (variables.length === 0) return undefined;
    // The reference takes the first of several candidates (with a warning) too.
    return { namespace, node: nodeName, variable: variables[0] };
  }

  private collectGraphVariable(node: ts.Node, into: FoundSubgraph['variable'][]): void {
    if (!ts.isIdentifier(node)) return;
    const symbol = this.checker.getSymbolAtLocation(node);
    const declaration = symbol?.valueDeclaration;
    if (declaration && ts.isVariableDeclaration(declaration) && this.isGraphType(this.checker.getTypeAtLocation(declaration))) {
      into.push({ name: declaration.name.getText(this.sourceFile), declaration });
    }
    const imported = symbol?.declarations?.find(ts.isImportSpecifier);
    if (imported && this.isGraphType(this.checker.getTypeAtLocation(imported))) {
      into.push({ name: imported.name.getText(this.sourceFile), declaration: imported });
    }
  }

  // The last node (in source order, not descending into a match) that carries a flow node.
  private lastWithFlowNode(root: ts.Node): (ts.Node & FlowLike) | undefined {
    const hasFlow = (node: ts.Node): node is ts.Node & FlowLike => Boolean((node as FlowLike).flowNode);
    if (hasFlow(root)) return root;
    let last: (ts.Node & FlowLike) | undefined;
    const visit = (node: ts.Node): void => {
      if (hasFlow(node)) last = node;
      else ts.forEachChild(node, visit);
    };
    ts.forEachChild(root, visit);
    return last;
  }
}
