import { z } from 'zod';

const graphSpec = z.string().trim().min(1, 'must name a file, e.g. "./src/agent.ts:graph"');

/** One entry of `graphs`: `"./path.ts:export"` or `{path, description}`. */
export const graphEntrySchema = z.union([
  graphSpec,
  z.object({ path: graphSpec, description: z.string().optional() }).loose(),
]);

const corsSchema = z
  .object({
    allow_origins: z.array(z.string()).optional(),
    allow_origin_regex: z.string().optional(),
    allow_methods: z.array(z.string()).optional(),
    allow_headers: z.array(z.string()).optional(),
    allow_credentials: z.boolean().optional(),
    expose_headers: z.array(z.string()).optional(),
    max_age: z.number().int().nonnegative().optional(),
  })
  .loose();

/** `http` of langgraph.json: the project's own HTTP app and what the server serves of its own. */
export const httpConfigSchema = z
  .object({
    app: graphSpec.optional(),
    disable_assistants: z.boolean().optional(),
    disable_threads: z.boolean().optional(),
    disable_runs: z.boolean().optional(),
    disable_store: z.boolean().optional(),
    disable_meta: z.boolean().optional(),
    disable_ui: z.boolean().optional(),
    disable_webhooks: z.boolean().optional(),
    disable_mcp: z.boolean().optional(),
    disable_a2a: z.boolean().optional(),
    cors: corsSchema.optional(),
    configurable_headers: z
      .object({ includes: z.array(z.string()).optional(), excludes: z.array(z.string()).optional() })
      .loose()
      .optional(),
    mount_prefix: z
      .string()
      .regex(/^\/.*[^/]$/, 'must start with "/" and not end with "/", e.g. "/my-agent"')
      .optional(),
    enable_custom_route_auth: z.boolean().optional(),
    middleware_order: z.enum(['auth_first', 'middleware_first']).optional(),
  })
  .loose();

export type HttpConfig = z.infer<typeof httpConfigSchema>;

/**
 * `langgraph.json` as LangGraph Platform reads it. `graphs`, `env`, `auth`, `store`, `http` and `ui` matter to the
 * Agent Server here; the other documented keys (`node_version`, `dependencies`, `checkpointer`, `dockerfile_lines`,
 * ...) are accepted and left to the tools that use them.
 */
export const langGraphConfigSchema = z
  .object({
    graphs: z
      .record(z.string().trim().min(1), graphEntrySchema)
      .refine((graphs) => Object.keys(graphs).length > 0, 'must define at least one graph'),
    env: z.union([z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])), z.string().trim().min(1)]).optional(),
    node_version: z.union([z.string(), z.number()]).optional(),
    dependencies: z.array(z.string()).optional(),
    /** The deployment's own authentication: `path` names an `Auth` of `@langchain/langgraph-sdk/auth`. */
    auth: z
      .object({
        path: z.string().trim().min(1, 'must name a file, e.g. "./src/auth.ts:auth"').optional(),
        disable_studio_auth: z.boolean().optional(),
      })
      .loose()
      .optional(),
    http: httpConfigSchema.optional(),
    /** Generative UI: graph id → the `.tsx` module of its components. */
    ui: z.record(z.string().trim().min(1), z.string().trim().min(1)).optional(),
    ui_config: z.object({ shared: z.array(z.string().trim().min(1)).optional() }).loose().optional(),
  })
  .loose();

export type LangGraphConfig = z.infer<typeof langGraphConfigSchema>;

/** `LANGGRAPH_CONFIG`: per-graph defaults for system assistants, `{graph_id: {...config, context}}`. */
export const graphDefaultsSchema = z.record(z.string(), z.record(z.string(), z.unknown()));
