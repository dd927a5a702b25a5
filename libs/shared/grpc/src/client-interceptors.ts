import * as grpc from '@grpc/grpc-js';

/** A client interceptor that adds the internal bearer token to every call. */
export function bearerTokenInterceptor(token: string): grpc.Interceptor {
  return (options, nextCall) =>
    new grpc.InterceptingCall(nextCall(options), {
      start(metadata, listener, next) {
        metadata.set('authorization', `Bearer ${token}`);
        next(metadata, listener);
      },
    });
}

/** A client interceptor that gives a deadline to every call that has none. */
export function defaultDeadlineInterceptor(deadlineMs: number): grpc.Interceptor {
  return (options, nextCall) =>
    new grpc.InterceptingCall(
      nextCall(options.deadline === undefined ? { ...options, deadline: Date.now() + deadlineMs } : options),
    );
}
