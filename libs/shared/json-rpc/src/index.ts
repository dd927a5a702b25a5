export {
  JSON_RPC,
  JsonRpcError,
  isJsonRpcId,
  parseJsonRpcParams,
  requestIdOf,
  rpcError,
  rpcResult,
  toJsonRpcError,
  type JsonRpcErrorObject,
  type JsonRpcId,
  type JsonRpcRequest,
} from './json-rpc';
