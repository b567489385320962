/**
 * The behaviour every ChangeNotices adapter must show, run once per adapter by its test file: two nodes of one
 * cluster (on Redis two clients with their own node ids), each announcing and following.
 */
import { afterEach, expect, it, vi } from 'vitest'
import {
  type ChangeNotices,
  type ChangeTopic,
  EVERY_KEY,
} from '../../src/platform/change-notices.js'

/** Two nodes of one cluster, and a way to close what the case opened. */
export interface ChangeNoticesUnderTest {
  one: ChangeNotices
  two: ChangeNotices
  /** A third node of the same cluster, opened when the case asks for it. */
  another(): Promise<ChangeNotices>
}

/** A follower's record of what it was told. */
function recorder(notices: ChangeNotices, topic: ChangeTopic) {
  const heard: string[] = []
  const follower = notices.follow(topic, (key) => {
    heard.push(key)
  })
  return { heard, follower }
}

/** Long enough for a message through Redis on a loaded machine. */
const DELIVERY = { timeout: 5_000 }

export function changeNoticesConformance(create: () => Promise<ChangeNoticesUnderTest>): void {
  let opened: ChangeNotices[] = []
  const nodes = async () => {
    const nodes = await create()
    opened.push(nodes.one, nodes.two)
    return {
      ...nodes,
      another: async () => {
        const node = await nodes.another()
        opened.push(node)
        return node
      },
    }
  }
  afterEach(async () => {
    await Promise.all(opened.map((node) => node.close()))
    opened = []
  })

  it("tells the other node's followers of a topic each key announced, in order, and no other topic's", async () => {
    const { one, two } = await nodes()
    const directory = recorder(two, 'directory')
    const routing = recorder(two, 'routing')

    await one.announce('directory', 'alice')
    await one.announce('directory', 'émile.zola-müller')
    await one.announce('routing', 'bob')
    await one.announce('directory', 'alice')

    await vi.waitFor(() => expect(directory.heard).toHaveLength(3), DELIVERY)
    expect(directory.heard).toStrictEqual(['alice', 'émile.zola-müller', 'alice'])
    await vi.waitFor(() => expect(routing.heard).toStrictEqual(['bob']), DELIVERY)
  })

  it('does not tell the announcing node its own notice: it applied its change already', async () => {
    const { one, two } = await nodes()
    const own = recorder(one, 'clock')

    await one.announce('clock', 'offset')
    // Both go through the same channel, one after the other: hearing the second means the first went by.
    await two.announce('clock', 'from-two')

    await vi.waitFor(() => expect(own.heard).toHaveLength(1), DELIVERY)
    expect(own.heard).toStrictEqual(['from-two'])
  })

  it('tells every follower of a topic on a node, and every other node', async () => {
    const { one, two, another } = await nodes()
    const three = await another()
    const first = recorder(two, 'routing')
    const second = recorder(two, 'routing')
    const third = recorder(three, 'routing')

    await one.announce('routing', 'carol')

    await vi.waitFor(() => expect(third.heard).toStrictEqual(['carol']), DELIVERY)
    await vi.waitFor(() => expect(first.heard).toStrictEqual(['carol']), DELIVERY)
    expect(second.heard).toStrictEqual(['carol'])
  })

  it('stops telling a follower once it is closed', async () => {
    const { one, two } = await nodes()
    const closed = recorder(two, 'directory')
    const open = recorder(two, 'directory')
    closed.follower.close()

    await one.announce('directory', 'alice')

    await vi.waitFor(() => expect(open.heard).toStrictEqual(['alice']), DELIVERY)
    expect(closed.heard).toStrictEqual([])
  })

  it('tells the first follower of a topic to reload everything when notices of it came before it followed', async () => {
    const { one, two } = await nodes()
    const routing = recorder(two, 'routing')
    await one.announce('directory', 'alice')
    await one.announce('routing', 'bob')
    await vi.waitFor(() => expect(routing.heard).toStrictEqual(['bob']), DELIVERY)

    const late = recorder(two, 'directory')
    await vi.waitFor(() => expect(late.heard).toStrictEqual([EVERY_KEY]), DELIVERY)
    // Once: the next follower of the topic missed nothing.
    const later = recorder(two, 'directory')
    await one.announce('directory', 'carol')
    await vi.waitFor(() => expect(later.heard).toStrictEqual(['carol']), DELIVERY)
    expect(late.heard).toStrictEqual([EVERY_KEY, 'carol'])
  })

  it('tells a follower that missed nothing nothing at first', async () => {
    const { one, two } = await nodes()
    const clock = recorder(two, 'clock')
    const routing = recorder(two, 'routing')

    await one.announce('routing', 'bob')

    await vi.waitFor(() => expect(routing.heard).toStrictEqual(['bob']), DELIVERY)
    expect(clock.heard).toStrictEqual([])
  })

  it('tells a closed node nothing, and the others go on', async () => {
    const { one, two, another } = await nodes()
    const three = await another()
    const closed = recorder(two, 'directory')
    const open = recorder(three, 'directory')
    await two.close()

    await one.announce('directory', 'alice')

    await vi.waitFor(() => expect(open.heard).toStrictEqual(['alice']), DELIVERY)
    expect(closed.heard).toStrictEqual([])
  })

  it('resolves an announce only once every other node applied the notice (its followers settled)', async () => {
    const { one, two, another } = await nodes()
    const three = await another()
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const applied: string[] = []
    two.follow('directory', async (key) => {
      await gate
      applied.push(`two:${key}`)
    })
    three.follow('directory', (key) => void applied.push(`three:${key}`))
    let answered = false

    const announced = one.announce('directory', 'alice').then(() => {
      answered = true
    })
    await vi.waitFor(() => expect(applied).toStrictEqual(['three:alice']), DELIVERY)
    // Three applied it, two is still at it: the announce waits.
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(answered).toBe(false)
    release()
    await announced

    expect(applied).toStrictEqual(['three:alice', 'two:alice'])
  })

  it('counts a notice as applied once its follower failed too: the follower reports its own failure', async () => {
    const { one, two } = await nodes()
    two.follow('routing', async () => {
      throw new Error('database gone')
    })

    await one.announce('routing', 'bob')
  })

  it('resolves at once an announce that no other node hears', async () => {
    const { one, two } = await nodes()
    await two.close()

    await one.announce('clock', 'offset')
  })
}
