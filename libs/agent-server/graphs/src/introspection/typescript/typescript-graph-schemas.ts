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

/** One graph's result: schemas by graph name (the export's name; `name|node|...` for its subgraphs), or why not. */
export type GraphTypeSchemas = { schemas: Record<string, GraphSchema>; error?: undefined } | { schemas?: undefined; error: string };

export interface TypeScriptGraphSchemas {
  /** One result per spec, in order. */
  graphs: GraphTypeSchemas[];
  /** The files on disk the compiler read (what a cached result depends on). */
  files: string[];
  /** The compiler's complaints about the graphs' types: they may explain a schema that is wrong or missing. */
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

function commonDir(files: string[]): string {
  const split = files.map((file) => path.dirname(file).split(path.sep));
  const common: string[] = [];
  for (let i = 0; split.every((parts) => i < parts.length && parts[i] === split[0][i]); i++) common.push(split[0][i]);
  return common.join(path.sep) || path.sep;
}

/**
 * Reads the JSON Schemas of graphs, and of the subgraphs their sources name, from their TypeScript types, the way
 * the reference server does for graphs whose state is typed only in TypeScript (`Annotation.Root`): the sources are
 * compiled beside type probes (see graph-type-probes.ts) in one program, and each probe is turned into a JSON
 * Schema. A schema that cannot be generated is left out; a graph whose export cannot be found gets an error.
 */
export function extractTypeScriptGraphSchemas(specs: GraphSourceSpec[], options: { fallbackNodeModules?: string } = {}): TypeScriptGraphSchemas {
  const dir = commonDir(specs.map((spec) => spec.sourceFile));
  const { options: compilerOptions, configFiles } = graphCompilerOptions(dir);
  const { host, addVirtualFile, isVirtual } = createGraphProgramHost(compilerOptions, dir, options.fallbackNodeModules);
  const probesFile = path.join(dir, '__graph_probes__.mts');
  addVirtualFile(probesFile, GRAPH_TYPE_PROBES);

  const sourceFiles = [...new Set(specs.map((spec) => spec.sourceFile))];
  const first = ts.createProgram({ rootNames: [probesFile, ...sourceFiles], options: compilerOptions, host });
  const checker = first.getTypeChecker();
  const graphTypes = ['PregelLike', 'BuilderLike'].map((name) => typeAliasNamed(first, probesFile, name));
  const isGraphType = (type: ts.Type) => graphTypes.some((graphType) => checker.isTypeAssignableTo(type, graphType));

  // Per graph: its export and the subgraphs its source names, each to be probed.
  const probedBySpec = specs.map((spec): ProbedGraph[] | string => {
    const source = first.getSourceFile(spec.sourceFile);
    if (!source) return `Cannot read ${spec.sourceFile}`;
    const stem = `${sanitize(path.basename(spec.sourceFile, path.extname(spec.sourceFile)))}_${sourceFiles.indexOf(spec.sourceFile)}`;
    const probed: ProbedGraph[] = [{ alias: `__graph__${sanitize(spec.exportName)}_${stem}`, variable: spec.exportName, graphName: spec.exportName }];
    const seen = new Set<string>();
    try {
      for (const { variable, node, namespace } of new SubgraphFinder(checker, source, isGraphType).ofExport(spec.exportName)) {
        if (seen.has(variable.name)) continue;
        seen.add(variable.name);
        probed.push({ alias: `__graph__${sanitize(namespace.join('_'))}_${sanitize(node)}_${stem}`, variable: variable.name, graphName: [...namespace, node].join('|') });
      }
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
    return probed;
  });

  // Each source again, with a type alias per graph variable, and a probe file reading those aliases.
  const inferFiles = sourceFiles.map((sourceFile, index) => {
    const probed = specs.flatMap((spec, i) => {
      const found = probedBySpec[i];
      return spec.sourceFile === sourceFile && typeof found !== 'string' ? found : [];
    });
    const ext = path.extname(sourceFile);
    const stem = `${sanitize(path.basename(sourceFile, ext))}_${index}`;
    const augmentedFile = path.join(path.dirname(sourceFile), `__graph_source_${stem}${ext}`);
    const text = first.getSourceFile(sourceFile)?.getFullText() ?? '';
    addVirtualFile(augmentedFile, [text, ...probed.map((p) => `export type ${p.alias} = typeof ${p.variable};`)].join('\n\n'));
    const importPath = `./${path.basename(augmentedFile, ext)}${compilerOptions.allowImportingTsExtensions ? ext : ext.replace('ts', 'js')}`;
    const inferFile = path.join(path.dirname(sourceFile), `__graph_infer_${stem}${ext}`);
    const imports = probed.map((p) => `import type { ${p.alias} } from "${importPath}";`);
    addVirtualFile(inferFile, [...imports, GRAPH_TYPE_PROBES, ...probed.map((p) => graphProbeAliases(p.alias))].join('\n\n'));
    return inferFile;
  });

  const program = ts.createProgram({ rootNames: inferFiles, options: compilerOptions, host, oldProgram: first });
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
  const graphs = probedBySpec.map((probed): GraphTypeSchemas => {
    if (typeof probed === 'string') return { error: probed };
    const schemas = probed.map(({ alias, graphName }) => [
      graphName,
      { state: schemaOf(`${alias}__state`), input: schemaOf(`${alias}__input`), output: schemaOf(`${alias}__output`), config: schemaOf(`${alias}__config`) },
    ]);
    return { schemas: Object.fromEntries(schemas) as Record<string, GraphSchema> };
  });
  // The first program read the graphs' own files (the second reads copies of them); the compiler's configuration and
  // the projects' package.json (module kind) tell how they are read.
  const read = [...first.getSourceFiles(), ...program.getSourceFiles()].map((file) => file.fileName);
  const packageJsons = sourceFiles.map((file) => ts.findConfigFile(path.dirname(file), ts.sys.fileExists, 'package.json')).filter((file) => file !== undefined);
  const files = [...new Set([...configFiles, ...packageJsons, ...read])].filter((fileName) => !isVirtual(fileName));
  return { graphs, files, diagnostics };
}

function typeAliasNamed(program: ts.Program, fileName: string, name: string): ts.Type {
  const file = program.getSourceFile(fileName);
  const declaration = file?.statements.find((statement): statement is ts.TypeAliasDeclaration => ts.isTypeAliasDeclaration(statement) && statement.name.text === name);
  if (!declaration) throw new Error(`Type "${name}" not found in the graph type probes`);
  return program.getTypeChecker().getTypeAtLocation(declaration);
}
