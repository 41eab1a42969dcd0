import { z } from 'zod';

/** Page size limits (page size 10, first page 1). The maximum bounds every list query. */
export const PAGE_SIZE_DEFAULT = 10;
export const PAGE_SIZE_MAX = 100;

/**
 * Query of a paged list: `pageID` counts from 1, `pageSize` defaults to 10 and is at most 100.
 * Query strings arrive as text, so both are coerced.
 */
export const pageQuerySchema = z.object({
  pageID: z.coerce.number().int().min(1).default(1),
  pageSize: z.coerce.number().int().min(1).max(PAGE_SIZE_MAX).default(PAGE_SIZE_DEFAULT),
});
export type PageQuery = z.infer<typeof pageQuerySchema>;

/** A page of results with its totals. */
export function pageSchema<T extends z.ZodType>(item: T) {
  return z.object({
    list: z.array(item),
    pageID: z.number().int(),
    pageSize: z.number().int(),
    totalPage: z.number().int(),
    totalCount: z.number().int(),
  });
}
export interface Page<T> {
  list: T[];
  pageID: number;
  pageSize: number;
  totalPage: number;
  totalCount: number;
}

/** Total pages for a count; an empty list still has zero pages. Division rounds up. */
export function totalPages(totalCount: number, pageSize: number): number {
  return Math.ceil(totalCount / pageSize);
}
