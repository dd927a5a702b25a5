export { callTool, listTools, type CallToolResult, type McpTool, type McpToolsDeps } from './mcp-tools';
export { MAX_TOOL_NAME_LENGTH, assignToolNames, baseToolName, type NamedAssistant } from './mcp-tool-names';
export {
  LATEST_MCP_PROTOCOL_VERSION,
  MCP_PROTOCOL_VERSIONS,
  callToolParams,
  initializeParams,
  listToolsParams,
  negotiateProtocolVersion,
  unsupportedVersionHeader,
} from './mcp-protocol';
