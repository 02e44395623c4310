/** The `[groups]` lists of the config. */
export interface GroupLists {
  /** Empty: every group is allowed. */
  allow: readonly string[];
  /** Always wins over `allow`. */
  deny: readonly string[];
}

/** True when messages from this group should reach the host. */
export function isGroupAllowed(lists: GroupLists, groupId: string): boolean {
  if (lists.deny.includes(groupId)) return false;
  return lists.allow.length === 0 || lists.allow.includes(groupId);
}
