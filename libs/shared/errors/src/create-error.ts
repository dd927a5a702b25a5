import {
  AuthenticationError,
  ConflictError,
  DeadlineExceededError,
  InputError,
  InternalError,
  NotAllowedError,
  NotFoundError,
  NotImplementedError,
  PlatformError,
  TooManyRequestsError,
  UnavailableError,
  type ErrorCode,
} from './platform-errors';
import { ValidationError } from './validation-error';

/** Builds the error class for a code, e.g. when a gRPC status or HTTP status comes back from a peer. */
export function createError(code: ErrorCode, message: string): PlatformError {
  switch (code) {
    case 'input':
      return new InputError(message);
    case 'validation':
      return new ValidationError([{ loc: [], msg: message, type: 'value_error' }]);
    case 'authentication':
      return new AuthenticationError(message);
    case 'not_allowed':
      return new NotAllowedError(message);
    case 'not_found':
      return new NotFoundError(message);
    case 'conflict':
      return new ConflictError(message);
    case 'too_many_requests':
      return new TooManyRequestsError(message);
    case 'unavailable':
      return new UnavailableError(message);
    case 'deadline_exceeded':
      return new DeadlineExceededError(message);
    case 'not_implemented':
      return new NotImplementedError(message);
    case 'internal':
      return new InternalError(message);
  }
}
