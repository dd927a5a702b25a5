import type * as grpc from '@grpc/grpc-js';

// Generated clients overload each method; inference reads the last overload, which for a unary
// method is `(argument, callback)` and for a server-streaming one `(argument, options?)`.
type UnarySignature<Req, Res> = (argument: Req, callback: grpc.requestCallback<Res>) => grpc.ClientUnaryCall;
type StreamSignature<Req, Res> = (argument: Req, options?: grpc.CallOptions) => grpc.ClientReadableStream<Res>;

/** Names of a client's unary methods (both the proto and the camelCase spelling). */
export type UnaryMethodOf<C> = {
  [K in keyof C]: C[K] extends UnarySignature<infer _Req, infer _Res> ? K : never;
}[keyof C] &
  string;

/** Names of a client's server-streaming methods. */
export type StreamMethodOf<C> = {
  [K in keyof C]: C[K] extends StreamSignature<infer _Req, infer _Res> ? K : never;
}[keyof C] &
  string;

export type UnaryRequest<C, M extends keyof C> = C[M] extends UnarySignature<infer Req, infer _Res> ? Req : never;
export type UnaryResponse<C, M extends keyof C> = C[M] extends UnarySignature<infer _Req, infer Res> ? Res : never;
export type StreamRequest<C, M extends keyof C> = C[M] extends StreamSignature<infer Req, infer _Res> ? Req : never;
export type StreamResponse<C, M extends keyof C> = C[M] extends StreamSignature<infer _Req, infer Res> ? Res : never;

/** The untyped shape a method is invoked through once its name has been checked. */
export type UnaryInvoker = (
  argument: unknown,
  metadata: grpc.Metadata,
  options: grpc.CallOptions,
  callback: grpc.requestCallback<unknown>,
) => grpc.ClientUnaryCall;
export type StreamInvoker = (
  argument: unknown,
  metadata: grpc.Metadata,
  options: grpc.CallOptions,
) => grpc.ClientReadableStream<unknown>;
