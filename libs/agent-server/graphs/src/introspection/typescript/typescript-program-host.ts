import path from 'node:path';
import ts from 'typescript';

// LangGraph's own packages resolve as the project resolves them (never from a copy inside another package).
const PROJECT_RESOLVED = [/^@langchain\/langgraph(\/.+)?$/, /^@langchain\/langgraph-checkpoint(\/.+)?$/];

/**
 * Compiler options for reading a graph's types: the nearest tsconfig.json above the graph (as the reference
 * does), made strict and non-emitting; with the config files they came from.
 */
export function graphCompilerOptions(dir: string): { options: ts.CompilerOptions; configFiles: string[] } {
  const forced: ts.CompilerOptions = { noEmit: true, strict: true, allowUnusedLabels: true };
  const tsconfig = ts.findConfigFile(dir, ts.sys.fileExists, 'tsconfig.json');
  if (!tsconfig) return { options: forced, configFiles: [] };
  const source = ts.readJsonConfigFile(tsconfig, ts.sys.readFile);
  const parsed = ts.parseJsonSourceFileConfigFileContent(source, ts.sys, path.dirname(tsconfig));
  return { options: { ...parsed.options, ...forced }, configFiles: [tsconfig, ...(source.extendedSourceFiles ?? [])] };
}

export interface GraphProgramHost {
  host: ts.CompilerHost;
  /** Adds (or replaces) a file that exists only for the compiler. */
  addVirtualFile(fileName: string, contents: string): void;
  isVirtual(fileName: string): boolean;
}

/**
 * A compiler host over the real file system plus virtual files. A bare import the project cannot resolve is
 * resolved from `fallbackFrom` (the platform's own node_modules, which graphs fall back on at run time too).
 */
export function createGraphProgramHost(options: ts.CompilerOptions, projectDir: string, fallbackFrom?: string): GraphProgramHost {
  const virtual = new Map<string, string>();
  const host = ts.createCompilerHost(options, true);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (fileName) => virtual.has(path.resolve(fileName)) || fileExists.call(host, fileName);
  host.readFile = (fileName) => virtual.get(path.resolve(fileName)) ?? readFile.call(host, fileName);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const contents = virtual.get(path.resolve(fileName));
    if (contents === undefined) return getSourceFile.call(host, fileName, languageVersion, onError, shouldCreate);
    return ts.createSourceFile(fileName, contents, languageVersion, true);
  };

  const cache = ts.createModuleResolutionCache(projectDir, (name) => name, options);
  const resolve = (specifier: string, from: string, compilerOptions: ts.CompilerOptions, redirected?: ts.ResolvedProjectReference) =>
    ts.resolveModuleName(specifier, from, compilerOptions, host, cache, redirected);
  host.resolveModuleNameLiterals = (literals, containingFile, redirected, compilerOptions) =>
    literals.map(({ text }) => {
      const inDependency = containingFile.split(path.sep).includes('node_modules');
      const from = !inDependency && PROJECT_RESOLVED.some((re) => re.test(text)) ? path.join(projectDir, '__resolve__.mts') : containingFile;
      const resolved = resolve(text, from, compilerOptions, redirected);
      if (resolved.resolvedModule || !fallbackFrom || text.startsWith('.') || path.isAbsolute(text)) return resolved;
      const fallback = resolve(text, path.join(fallbackFrom, '__resolve__.mts'), compilerOptions, redirected);
      return fallback.resolvedModule ? fallback : resolved;
    });

  return {
    host,
    addVirtualFile: (fileName, contents) => virtual.set(path.resolve(fileName), contents),
    isVirtual: (fileName) => virtual.has(path.resolve(fileName)),
  };
}
