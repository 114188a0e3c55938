/** A member's block list ("crna lista", issue 24): how many members one member may block. */
export const MAX_BLOCKED_MEMBERS = 500;
