/** The port of the users administrator subscriptions supervise (specification, "Events" item 7). */

/**
 * The users supervised through administrator subscriptions, company-wide, within a limit (the installed
 * TELEPHONY_ADVANCED count; specification, "Events" item 7 and "Limits"; docs/cluster.md, "Supervised
 * users"). Each subscription holds its set of users; a user counts once however many subscriptions hold it.
 * Checking the limit and changing the sets is one atomic step across the nodes of a cluster.
 */
export interface SupervisionStore {
  /**
   * Makes `users` the set subscription `subscriptionId` holds (creation, or a filter replaced), when the count
   * that follows is within `limit`: true then; false, changing nothing, otherwise.
   */
  hold(subscriptionId: string, users: ReadonlySet<string>, limit: number): Promise<boolean>
  /** Gives back every user the subscription holds (it was removed); nothing happens when it holds none. */
  release(subscriptionId: string): Promise<void>
  /** Distinct users supervised now. */
  count(): Promise<number>
}
