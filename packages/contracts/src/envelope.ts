import { z } from 'zod';

/**
 * The response envelope of every API call (docs/architecture.md "Request path"): `{ statusCode, content, message }`.
 * `statusCode` is a business code from `codes.ts`; 200 means success.
 */
export interface Envelope<T> {
  statusCode: number;
  content: T;
  message: string;
}

/** zod schema of an envelope around `content`, for OpenAPI and for response checks in tests. */
export function envelopeSchema<T extends z.ZodType>(content: T) {
  return z.object({ statusCode: z.number().int(), content, message: z.string() });
}

/** One field that failed validation, named by its dotted path (`"address.label"`). */
export const fieldErrorSchema = z.object({ field: z.string(), message: z.string() });
export type FieldError = z.infer<typeof fieldErrorSchema>;

/** Content of a validation failure (code 120): every failing field, first one first. */
export const validationErrorContentSchema = z.object({ fields: z.array(fieldErrorSchema) });
export type ValidationErrorContent = z.infer<typeof validationErrorContentSchema>;
