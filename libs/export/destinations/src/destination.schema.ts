import { z } from 'zod';

const nonEmpty = z.string().trim().min(1);

export const credentialsSchema = z.object({
  access_key_id: nonEmpty,
  secret_access_key: nonEmpty,
  session_token: nonEmpty.nullish(),
});

export const destinationConfigSchema = z.object({
  bucket_name: nonEmpty.max(255).refine((v) => !v.includes('/'), 'bucket_name must not contain "/"'),
  // Required, as the specification says; `""` (or `"/"`) is the bucket's root, which LangSmith's API accepts too.
  prefix: z.string().max(1024),
  region: nonEmpty.nullish(),
  endpoint_url: z
    .string()
    .trim()
    .refine((v) => /^https?:\/\/[^\s/]+/i.test(v) && URL.canParse(v), 'endpoint_url must be an http(s) URL')
    .nullish(),
  include_bucket_in_prefix: z.boolean().default(false),
  config_kwargs_s3: z
    .object({ addressing_style: z.enum(['auto', 'virtual', 'path']).default('auto') })
    .nullish(),
});

/** `POST /bulk-exports/destinations` */
export const createDestinationSchema = z.object({
  destination_type: z.literal('s3'),
  display_name: nonEmpty.max(255),
  config: destinationConfigSchema,
  // Omitting the whole object selects the SDK's default credential chain (self-hosted).
  credentials: credentialsSchema.nullish(),
});
export type CreateDestinationRequest = z.infer<typeof createDestinationSchema>;

/** `PATCH /bulk-exports/destinations/{id}`: credential rotation (re-validated with a test write). */
export const updateDestinationSchema = z.object({
  credentials: credentialsSchema,
  display_name: nonEmpty.max(255).optional(),
});
export type UpdateDestinationRequest = z.infer<typeof updateDestinationSchema>;
