/** The direction of a search's sort (`sort_order`). */
export type SortOrder = 'asc' | 'desc';
