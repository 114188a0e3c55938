/**
 * The list sort orders. Kept free of zod so that the list page can import them without pulling the
 * schema bundle into its first visit (docs/performance.md, B5); shared/schemas/auctions re-exports them.
 */
export const SORTS = ['endDateAsc', 'endDateDesc', 'priceAsc', 'priceDesc'] as const;
export type Sort = (typeof SORTS)[number];
