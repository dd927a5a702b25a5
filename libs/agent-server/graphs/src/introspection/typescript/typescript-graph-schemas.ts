import path from 'node:path';
import ts from 'typescript';
import { buildGenerator, type Definition } from 'typescript-json-schema';
import type { GraphSchema, JsonSchema } from '../graph-schema';
import { GRAPH_TYPE_PROBES, graphProbeAliases } from './graph-type-probes';
import { SubgraphFinder } from './subgraph-finder';
import { createGraphProgramHost, graphCompilerOptions } from './typescript-program-host';

/** Where a graph is exported: an absolute source file and the export's name. */
export interface GraphSourceSpec {
  sourceFile: string;
  exportName: string;
}

export interface TypeScriptGraphSchemas {
  /** Schemas by graph name: the export's name for the graph itself, `name|node|...` for its subgraphs. */
  schemas: Record<string, GraphSchema>;
  /** The files on disk the compiler read (what a cached result depends on). */
  files: string[];
  /** The compiler's complaints about the graph's types: they may explain a schema that is wrong or missing. */
  diagnostics: string[];
}

const MAX_DIAGNOSTICS = 20;

function describe(diagnostic: ts.Diagnostic): string {
  const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
  if (!diagnostic.file || diagnostic.start === undefined) return message;
  const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start);
  return `${diagnostic.file.fileName} (${line + 1},${character + 1}): ${message}`;
}

interface ProbedGraph {
  alias: string;
  variable: string;
  graphName: string;
}

const sanitize = (text: string) => text.replace(/[^a-zA-Z0-9]/g, '_');

const DEFINITIONS = '#/definitions/';

// As the reference answers them: references name definitions as they are (this generator URI-encodes them), and
// definitions named after an import of @langchain/core keep the plain name.
function asReferenceAnswers(schema: Definition): JsonSchema {
  const definitions = schema.definitions ?? {};
  const renamed: Record<string, string> = {};
  for (const key of Object.keys(definitions)) {
    const plain = key.includes('import(') ? key.replace(/import\(.+@langchain[\\/]core.+\)\./, '') : key;
    if (plain === key || definitions[plain] !== undefined) continue;
    definitions[plain] = definitions[key];
    delete definitions[key];
    renamed[key] = plain;
  }
  const reference = (value: string) => {
    const name = decodeURIComponent(value.slice(DEFINITIONS.length));
    return DEFINITIONS + (renamed[name] ?? name);
  };
  return JSON.parse(JSON.stringify(schema, (_key, value: unknown) => (typeof value === 'string' && value.startsWith(DEFINITIONS) ? reference(value) : value))) as JsonSchema;
}

/**
 * Reads the JSON Schemas of a graph, and of the subgraphs its source names, from its TypeScript types, the way the
 * reference server does for graphs whose state is typed only in TypeScript (`Annotation.Root`): the source file is
 * compiled beside type probes (see graph-type-probes.ts) and each probe is turned into a JSON Schema. A schema
 * that cannot be generated is left out; an export that cannot be found throws.
 */
export function extractTypeScriptGraphSchemas(spec: GraphSourceSpec, options: { fallbackNodeModules?: string } = {}): TypeScriptGraphSchemas {
  const dir = path.dirname(spec.sourceFile);
  const compilerOptions = graphCompilerOptions(dir);
  const { host, addVirtualFile, isVirtual } = createGraphProgramHost(compilerOptions, dir, options.fallbackNodeModules);
  const probesFile = path.join(dir, '__graph_probes__.mts');
  addVirtualFile(probesFile, GRAPH_TYPE_PROBES);

  const first = ts.createProgram({ rootNames: [probesFile, spec.sourceFile], options: compilerOptions, host });
  const checker = first.getTypeChecker();
  const source = first.getSourceFile(spec.sourceFile);
  if (!source) throw new Error(`Cannot read ${spec.sourceFile}`);
  const graphTypes = ['PregelLike', 'BuilderLike'].map((name) => typeAliasNamed(first, probesFile, name));
  const isGraphType = (type: ts.Type) => graphTypes.some((graphType) => checker.isTypeAssignableTo(type, graphType));

  const ext = path.extname(spec.sourceFile);
  const stem = sanitize(path.basename(spec.sourceFile, ext));
  const probed: ProbedGraph[] = [{ alias: `__graph__${sanitize(spec.exportName)}_${stem}`, variable: spec.exportName, graphName: spec.exportName }];
  const seen = new Set<string>();
  for (const { variable, node, namespace } of new SubgraphFinder(checker, source, isGraphType).ofExport(spec.exportName)) {
    if (seen.has(variable.name)) continue;
    seen.add(variable.name);
    probed.push({ alias: `__graph__${sanitize(namespace.join('_'))}_${sanitize(node)}_${stem}`, variable: variable.name, graphName: [...namespace, node].join('|') });
  }

  // The source again, with a type alias per graph variable, and a probe file reading those aliases.
  const augmentedFile = path.join(dir, `__graph_source_${stem}${ext}`);
  addVirtualFile(augmentedFile, [source.getFullText(), ...probed.map((p) => `export type ${p.alias} = typeof ${p.variable};`)].join('\n\n'));
  const importPath = `./${path.basename(augmentedFile, ext)}${compilerOptions.allowImportingTsExtensions ? ext : ext.replace('ts', 'js')}`;
  const inferFile = path.join(dir, `__graph_infer_${stem}${ext}`);
  addVirtualFile(
    inferFile,
    [
      ...probed.map((p) => `import type { ${p.alias} } from "${importPath}";`),
      GRAPH_TYPE_PROBES,
      ...probed.map((p) => graphProbeAliases(p.alias)),
    ].join('\n\n'),
  );

  const program = ts.createProgram({ rootNames: [inferFile], options: compilerOptions, host, oldProgram: first });
  // Checking the whole program first (as the reference does) also fixes the order in which the checker creates
  // types, and so the order of union members in the schemas.
  const diagnostics = ts.getPreEmitDiagnostics(program).slice(0, MAX_DIAGNOSTICS).map(describe);
  // No file counts as the user's: like the reference, every alias is generated from its last declaration.
  const generator = buildGenerator(program, { ignoreErrors: true }, []);
  const schemaOf = (symbol: string): JsonSchema | undefined => {
    try {
      const schema = generator?.getSchemaForSymbol(symbol);
      return schema ? asReferenceAnswers(schema) : undefined;
    } catch {
      return undefined;
    }
  };
  const schemas = Object.fromEntries(
    probed.map(({ alias, graphName }) => [
      graphName,
      { state: schemaOf(`${alias}__state`), input: schemaOf(`${alias}__input`), output: schemaOf(`${alias}__output`), config: schemaOf(`${alias}__config`) },
    ]),
  );
  const files = program
    .getSourceFiles()
    .map((file) => file.fileName)
    .filter((fileName) => !isVirtual(fileName));
  return { schemas, files, diagnostics };
}

function typeAliasNamed(program: ts.Program, fileName: string, name: string): ts.Type {
  const file = program.getSourceFile(fileName);
  const declaration = file?.statements.find((statement): statement is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(statement) && statement.name.text === name);
  if (!declaration) throw new Error(`Type "${name}" not found in the graph type probes`);
  return program.getTypeChecker().getTypeAtLocation(declaration);
}
