import { join } from 'node:path';
import { z } from 'zod';
import { emptyToUndefined, type NodeEnv } from './env-rules.ts';

/** Uploaded files: the local directory, their encryption key, and the S3 bucket. */
export const uploadsEnvSchema = z.object({
  /** Directory of uploaded files (encrypted at rest) when no S3 bucket is set; default DATA_DIR/uploads. */
  UPLOADS_DIR: z.preprocess(emptyToUndefined, z.string().min(1).optional()),
  /** Secret (≥ 32 characters) from which the AES-256-GCM key of uploaded files is derived. Generated into DATA_DIR when absent; required in production with S3. */
  UPLOADS_ENCRYPTION_KEY: z.preprocess(
    emptyToUndefined,
    z.string().min(32, { error: 'must be at least 32 characters' }).optional(),
  ),
  /** S3-compatible bucket for uploaded files: endpoint URL, bucket, region and keys, all five or none. */
  S3_ENDPOINT: z.preprocess(emptyToUndefined, z.url().optional()),
  S3_BUCKET: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, {
        error: 'must be a bucket name (3–63 lower-case letters, digits, dots, hyphens)',
      })
      .optional(),
  ),
  S3_REGION: z.preprocess(emptyToUndefined, z.string().min(1).optional()),
  S3_ACCESS_KEY_ID: z.preprocess(emptyToUndefined, z.string().min(1).optional()),
  S3_SECRET_ACCESS_KEY: z.preprocess(emptyToUndefined, z.string().min(1).optional()),
});

/** The upload variables after parsing. */
export type UploadsEnv = z.infer<typeof uploadsEnvSchema>;

/** The upload variables' rules across variables. */
export function checkUploadsEnv(env: UploadsEnv & { NODE_ENV: NodeEnv }, ctx: z.RefinementCtx): void {
  const s3Names = ['S3_ENDPOINT', 'S3_BUCKET', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'] as const;
  const s3Missing = s3Names.filter((name) => !env[name]);
  if (s3Missing.length > 0 && s3Missing.length < s3Names.length) {
    for (const name of s3Missing)
      ctx.addIssue({
        code: 'custom',
        path: [name],
        message: 'is required when any S3_* variable is set (all five or none)',
      });
  }
  if (env.NODE_ENV === 'production' && s3Missing.length === 0 && !env.UPLOADS_ENCRYPTION_KEY) {
    // Files in a bucket outlive this machine: their key must not exist only in this machine's data directory.
    ctx.addIssue({
      code: 'custom',
      path: ['UPLOADS_ENCRYPTION_KEY'],
      message: 'is required in production when uploads go to S3',
    });
  }
}

/**
 * Uploaded files (platform/uploads): the local directory, the secret of their encryption key
 * (undefined: generated into DATA_DIR/secrets, or memory for a memory database), and the S3
 * bucket that replaces the directory when set.
 */
export interface UploadsConfig {
  dir: string;
  encryptionKey: string | undefined;
  s3: { endpoint: string; bucket: string; region: string; accessKeyId: string; secretAccessKey: string } | undefined;
}

/** The uploads' settings from UPLOADS_* and S3_* (the directory defaults to `dataDir`/uploads). */
export function uploadsConfig(e: UploadsEnv, dataDir: string): UploadsConfig {
  return {
    dir: e.UPLOADS_DIR ?? join(dataDir, 'uploads'),
    encryptionKey: e.UPLOADS_ENCRYPTION_KEY,
    s3:
      e.S3_ENDPOINT && e.S3_BUCKET && e.S3_REGION && e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
        ? {
            endpoint: e.S3_ENDPOINT,
            bucket: e.S3_BUCKET,
            region: e.S3_REGION,
            accessKeyId: e.S3_ACCESS_KEY_ID,
            secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          }
        : undefined,
  };
}
