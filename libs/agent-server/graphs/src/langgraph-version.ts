import langgraphPackage from '@langchain/langgraph/package.json';

/**
 * The version of `@langchain/langgraph` that runs the graphs: what `/info` announces as `langgraph_js_version` and
 * what every checkpoint a run writes records as `langgraph_version`, as LangGraph's API server does.
 */
export const LANGGRAPH_VERSION: string = langgraphPackage.version;
