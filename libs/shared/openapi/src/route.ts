import type { Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

/** One documented response of a route: its description and, when it has a body, that body's schema. */
export interface ResponseSpec {
  description: string;
  /** The body's shape (JSON unless `contentType` says otherwise). Documentation only: the handler's answer is sent as is. */
  schema?: z.ZodType;
  contentType?: string;
  /** Headers the response carries (`X-Pagination-Total`), with what each holds. */
  headers?: Record<string, { description: string; schema: z.ZodType }>;
}

/** What a route declares once: it both validates the request and describes the route in the OpenAPI document. */
export interface RouteSpec<P extends z.ZodType | undefined, Q extends z.ZodType | undefined, B extends z.ZodType | undefined> {
  method: HttpMethod;
  /** Express path (`/deployments/:deploymentId`); documented as `/deployments/{deploymentId}`. */
  path: string;
  summary: string;
  description?: string;
  tags?: readonly string[];
  /** Defaults to the method and path (`get_deployments_deploymentId`). */
  operationId?: string;
  /** Path parameters, parsed before the handler runs (422 `loc: ["path", ...]`). */
  params?: P;
  /** Query string, parsed before the handler runs (422 `loc: ["query", ...]`). */
  query?: Q;
  /** JSON body, parsed before the handler runs (422 `loc: ["body", ...]`); a missing body is `{}`. */
  body?: B;
  /**
   * A body the handler reads itself (a streamed multipart upload, or JSON a use case parses with its own schema):
   * documented here, not parsed before the handler. Give the schema the use case validates with, where there is one.
   */
  readsBody?: { contentType: string; description: string; schema?: z.ZodType };
  /**
   * Request headers the handler reads itself (`Last-Event-ID`, a protocol version): documented as header parameters,
   * not parsed before the handler.
   */
  headers?: Record<string, { description: string; schema: z.ZodType; required?: boolean }>;
  responses: Record<number, ResponseSpec>;
  /** Middleware run before validation (authentication, a body parser, an origin check): what must refuse first. */
  before?: RequestHandler[];
  /** Served without an API key (the route authenticates itself, or is public). */
  public?: boolean;
}

type Parsed<S> = S extends z.ZodType ? z.output<S> : undefined;

/** The parsed parts of a request, as the route's schemas return them (defaults applied, strings coerced). */
export interface RouteInput<P, Q, B> {
  params: Parsed<P>;
  query: Parsed<Q>;
  body: Parsed<B>;
}

export interface DeclaredRoute<
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
> extends RouteSpec<P, Q, B> {
  // A method (not a property) so a route of any schemas fits a `DeclaredRoute[]`.
  handle(input: RouteInput<P, Q, B>, req: Request, res: Response): unknown;
}

/** Declares a route: method, path, schemas and responses, and the handler that gets the parsed request. */
export function route<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
>(spec: RouteSpec<P, Q, B>, handle: (input: RouteInput<P, Q, B>, req: Request, res: Response) => unknown): DeclaredRoute<P, Q, B> {
  return { ...spec, handle };
}

/** `/a/:b/c` → `/a/{b}/c`. */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/:(\w+)/g, '{$1}');
}

/**
 * `true` when a response schema's output and what the handler sends are the same type: `const _: SameShape<z.output<typeof schema>, Json> = true`
 * keeps a documented shape from drifting away from the code that makes it (a compile error when it does).
 */
export type SameShape<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
