/**
 * A chunk channel that follows its subscription across the nodes of a cluster, as SDKs do: when its node goes
 * away (killed, drained) it opens the channel again on another living node, and keeps every event it reads
 * (but `Chunk started`), for the cluster mode's failure tests.
 */
import { type ChannelClient, openChannel } from './channel-client.js'
import type { ClusterNode } from './cluster-nodes.js'

export class FollowingChannel {
  readonly events: Record<string, unknown>[] = []
  reopened = 0
  #channel: ChannelClient | undefined
  #stopped = false
  readonly #done: Promise<void>

  constructor(
    private readonly subscriptionId: string,
    private readonly living: () => ClusterNode[],
    first: ClusterNode,
  ) {
    this.#done = this.#follow(first)
  }

  async #follow(first: ClusterNode): Promise<void> {
    let node: ClusterNode | undefined = first
    while (!this.#stopped && node !== undefined) {
      const channel = await openChannel(
        `${node.origin}/api/rest/1.0/notifications/${this.subscriptionId}`,
      ).catch(() => undefined)
      if (channel?.status === 200) {
        this.#channel = channel
        let ended = false
        void channel.ended.then(() => {
          ended = true
        })
        while (!this.#stopped && !ended) this.#keep(await channel.next(200).catch(() => undefined))
        for (let event = await channel.next(10).catch(() => undefined); event !== undefined; ) {
          this.#keep(event)
          event = await channel.next(10).catch(() => undefined)
        }
      } else await new Promise((resolve) => setTimeout(resolve, 200))
      if (this.#stopped) break
      this.reopened += 1
      const others = this.living().filter((other) => other !== node)
      node = others[this.reopened % Math.max(others.length, 1)] ?? this.living()[0]
    }
  }

  #keep(event: Record<string, unknown> | undefined): void {
    if (event !== undefined && event['eventName'] !== 'OnChannelInformation')
      this.events.push(event)
  }

  /** The callRefs of the events named `eventName`, first occurrences in order. */
  callRefs(eventName: string): string[] {
    const refs = this.events
      .filter((event) => event['eventName'] === eventName)
      .map((event) => String(event['callRef']))
    return [...new Set(refs)]
  }

  async stop(): Promise<void> {
    this.#stopped = true
    this.#channel?.close()
    await this.#done
  }
}
