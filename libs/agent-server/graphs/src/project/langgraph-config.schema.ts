import { z } from 'zod';

const graphSpec = z.string().trim().min(1, 'must name a file, e.g. "./src/agent.ts:graph"');

/** One entry of `graphs`: `"./path.ts:export"` or `{path, description}`. */
export const graphEntrySchema = z.union([
  graphSpec,
  z.object({ path: graphSpec, description: z.string().optional() }).loose(),
]);

/**
 * `langgraph.json` as LangGraph Platform reads it. `graphs`, `env`, `auth` and `store` matter to the Agent Server
 * here; the other documented keys (`node_version`, `dependencies`, `http`, `checkpointer`, `dockerfile_lines`, ...)
 * are accepted and left to the tools that use them.
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
  })
  .loose();

export type LangGraphConfig = z.infer<typeof langGraphConfigSchema>;

/** `LANGGRAPH_CONFIG`: per-graph defaults for system assistants, `{graph_id: {...config, context}}`. */
export const graphDefaultsSchema = z.record(z.string(), z.record(z.string(), z.unknown()));
