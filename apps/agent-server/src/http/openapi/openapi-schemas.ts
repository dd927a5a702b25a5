import { arrayOf, int, object, ref, str, type Schema } from './openapi-helpers';

/** The component schemas of the Agent Server API. */
export const componentSchemas: Record<string, Schema> = {
  ErrorResponse: object({ detail: str() }, ['detail']),
  ValidationError: object({ loc: arrayOf({ oneOf: [str(), int()] }), msg: str(), type: str() }, ['loc', 'msg', 'type']),
  HTTPValidationError: object({ detail: arrayOf(ref('ValidationError')) }),
};
