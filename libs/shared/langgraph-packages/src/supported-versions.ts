/**
 * The LangGraph.js packages a deployment shares with the Agent Server, and the versions the server supports. The
 * server drives the deployment's graphs with the deployment's own copy of each (one copy per deployment), so a
 * project must bring a version in range (or none: the platform's copy then serves). A build that finds another
 * version fails, naming the package, the version found and the range.
 *
 * The lower bounds are the oldest versions the server's code is tested with (the project pinned to them lives in
 * tools/conformance/projects/langgraph-oldest); raise them together with that project.
 */
export const SUPPORTED_LANGGRAPH_VERSIONS = {
  '@langchain/core': '^1.1.48',
  '@langchain/langgraph': '^1.3.6',
  '@langchain/langgraph-checkpoint': '^1.1.0',
} as const;

export type SupportedPackageName = keyof typeof SUPPORTED_LANGGRAPH_VERSIONS;

/**
 * Every package the server takes from the deployment's install, and where each is looked up: the first place in
 * the list that has it wins ('project' is the directory of langgraph.json; a package name is that package's own
 * directory, i.e. the copy it depends on). Packages missing from the install come from the platform.
 */
export const SHARED_PACKAGES: Record<string, readonly string[]> = {
  '@langchain/langgraph': ['project'],
  // LangGraph's own peer and dependencies, as LangGraph resolves them (pnpm keeps them out of the project's root).
  '@langchain/core': ['@langchain/langgraph', 'project'],
  '@langchain/langgraph-checkpoint': ['@langchain/langgraph', 'project'],
  // The copy the project's own modules import (auth handlers, loggers), else LangGraph's.
  '@langchain/langgraph-sdk': ['project', '@langchain/langgraph'],
  // The LangSmith client that core's tracer was built against.
  langsmith: ['@langchain/core', 'project'],
};
