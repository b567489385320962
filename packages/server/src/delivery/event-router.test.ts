/**
 * The event router: an index by event name and login name; company-wide events under `*`; one
 * serialization per event whatever the number of targets; each target served once per event.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { PlatformEvent } from '../platform/events.js'
import { ANY_LOGIN, EventRouter, type EventTarget, type SerializedEvent } from './event-router.js'

/** A target that records what it receives. */
function target(): EventTarget & { received: string[]; instances: SerializedEvent[] } {
  const received: string[] = []
  const instances: SerializedEvent[] = []
  return {
    received,
    instances,
    deliver: (event) => {
      received.push(event.json)
      instances.push(event)
    },
  }
}

const event = (eventName: string, loginName: string, extra: Record<string, unknown> = {}) =>
  ({ eventName, loginName, ...extra }) as PlatformEvent

afterEach(() => {
  vi.restoreAllMocks()
})

describe('EventRouter: index by event name and login', () => {
  it('delivers an event to the targets routed for its name and login only', () => {
    const router = new EventRouter()
    const alice = target()
    const bob = target()
    router.route(alice, [{ eventNames: ['OnCallCreated', 'OnCallRemoved'], loginNames: ['alice'] }])
    router.route(bob, [{ eventNames: ['OnCallCreated'], loginNames: ['bob'] }])

    router.publish(event('OnCallCreated', 'alice', { callRef: 'c1' }))
    router.publish(event('OnCallCreated', 'bob', { callRef: 'c2' }))
    router.publish(event('OnCallRemoved', 'bob'))
    router.publish(event('OnCallModified', 'alice'))
    router.publish(event('OnCallCreated', 'carol'))

    expect(alice.received.map((line) => JSON.parse(line))).toEqual([
      { eventName: 'OnCallCreated', loginName: 'alice', callRef: 'c1' },
    ])
    expect(bob.received.map((line) => JSON.parse(line))).toEqual([
      { eventName: 'OnCallCreated', loginName: 'bob', callRef: 'c2' },
    ])
  })

  it('serializes as one JSON line (no newline)', () => {
    const router = new EventRouter()
    const alice = target()
    router.route(alice, [{ eventNames: ['OnPreferencesChanged'], loginNames: ['alice'] }])
    router.publish(event('OnPreferencesChanged', 'alice', { preferences: { guiLanguage: 'fr' } }))
    expect(alice.received).toEqual([
      '{"eventName":"OnPreferencesChanged","loginName":"alice","preferences":{"guiLanguage":"fr"}}',
    ])
  })

  it('serves one target for several logins, and several targets for one login', () => {
    const router = new EventRouter()
    const supervisor = target()
    const own = target()
    router.route(supervisor, [{ eventNames: ['OnUserInfoChanged'], loginNames: ['alice', 'bob'] }])
    router.route(own, [{ eventNames: ['OnUserInfoChanged'], loginNames: ['bob'] }])
    router.publish(event('OnUserInfoChanged', 'alice'))
    router.publish(event('OnUserInfoChanged', 'bob'))
    expect(supervisor.received).toHaveLength(2)
    expect(own.received).toHaveLength(1)
  })
})

describe('EventRouter: events about a subject', () => {
  it("routes a pilot's events by their subject and sends them without it", () => {
    const router = new EventRouter()
    const monitor = target()
    router.route(monitor, [{ eventNames: ['OnPilotCallQueued'], loginNames: ['pilot:3000'] }])
    router.publish(event('OnPilotCallQueued', 'pilot:3000', { pilot: '3000', callRef: 'c1' }))
    router.publish(event('OnPilotCallQueued', 'pilot:3001', { pilot: '3001', callRef: 'c2' }))
    expect(monitor.received).toEqual([
      '{"eventName":"OnPilotCallQueued","pilot":"3000","callRef":"c1"}',
    ])
  })
})

describe('EventRouter: company-wide events', () => {
  it.each(['OnUserCreated', 'OnUserDeleted'])(
    '%s reaches its targets whatever the login it is about or the ids routed',
    (name) => {
      const router = new EventRouter()
      const listed = target()
      const noIds = target()
      router.route(listed, [{ eventNames: [name], loginNames: ['alice'] }])
      router.route(noIds, [{ eventNames: [name], loginNames: [] }])
      router.publish(event(name, 'zoe'))
      router.publish(event(name, 'alice'))
      expect(listed.received).toHaveLength(2)
      expect(noIds.received).toHaveLength(2)
    },
  )

  it('keeps the ids for the other events of the same route', () => {
    const router = new EventRouter()
    const admin = target()
    router.route(admin, [
      { eventNames: ['OnUserCreated', 'OnUserInfoChanged'], loginNames: ['alice'] },
    ])
    router.publish(event('OnUserInfoChanged', 'zoe'))
    router.publish(event('OnUserCreated', 'zoe'))
    router.publish(event('OnUserInfoChanged', 'alice'))
    expect(admin.received.map((line) => JSON.parse(line).eventName)).toEqual([
      'OnUserCreated',
      'OnUserInfoChanged',
    ])
  })

  it('uses `*` as the key that matches any login', () => {
    expect(ANY_LOGIN).toBe('*')
  })
})

describe('EventRouter: one serialization, one delivery per target', () => {
  it('serializes an event once for several targets, and hands each the same text', () => {
    const router = new EventRouter()
    const targets = [target(), target(), target()]
    const [first, second, third] = targets
    router.route(first as EventTarget, [{ eventNames: ['OnCallCreated'], loginNames: ['alice'] }])
    router.route(second as EventTarget, [{ eventNames: ['OnCallCreated'], loginNames: ['alice'] }])
    router.route(third as EventTarget, [{ eventNames: ['OnUserDeleted'], loginNames: ['bob'] }])
    const stringify = vi.spyOn(JSON, 'stringify')

    router.publish(event('OnCallCreated', 'alice'))
    expect(stringify).toHaveBeenCalledTimes(1)
    const text = stringify.mock.results[0]?.value as string
    expect(first?.received).toEqual([text])
    expect(second?.received).toEqual([text])
    expect(first?.instances[0]).toBe(second?.instances[0])
    const chunk = first?.instances[0]?.sequencedChunk(7).toString() ?? ''
    const line = `${text.slice(0, -1)},"sequence":7}\n`
    expect(chunk).toBe(`${Buffer.byteLength(line).toString(16)}\r\n${line}\r\n`)

    router.publish(event('OnUserDeleted', 'carol'))
    expect(stringify).toHaveBeenCalledTimes(2)
    expect(third?.received).toHaveLength(1)
  })

  it('does not serialize an event no target wants', () => {
    const router = new EventRouter()
    router.route(target(), [{ eventNames: ['OnCallCreated'], loginNames: ['alice'] }])
    const stringify = vi.spyOn(JSON, 'stringify')
    router.publish(event('OnCallCreated', 'bob'))
    router.publish(event('OnCallRemoved', 'alice'))
    expect(stringify).not.toHaveBeenCalled()
  })

  it('delivers once to a target whose routes match the event twice', () => {
    const router = new EventRouter()
    const twice = target()
    router.route(twice, [
      { eventNames: ['OnCallCreated'], loginNames: ['alice', 'alice'] },
      { eventNames: ['OnCallCreated', 'OnCallRemoved'], loginNames: ['alice'] },
    ])
    router.publish(event('OnCallCreated', 'alice'))
    expect(twice.received).toHaveLength(1)
  })

  it('delivers once a company-wide event routed through several selectors and ids', () => {
    const router = new EventRouter()
    const admin = target()
    router.route(admin, [
      { eventNames: ['OnUserCreated', 'OnUserDeleted'], loginNames: ['alice', 'bob'] },
      { eventNames: ['OnUserCreated'], loginNames: ['carol'] },
    ])
    router.publish(event('OnUserCreated', 'zoe'))
    expect(admin.received).toHaveLength(1)
  })

  it('delivers once to a target found under both the login and `*`', () => {
    const router = new EventRouter()
    const admin = target()
    const other = target()
    router.route(admin, [{ eventNames: ['OnUserCreated'], loginNames: ['alice'] }])
    router.route(other, [{ eventNames: ['OnUserCreated'], loginNames: [] }])
    router.publish(event('OnUserCreated', ANY_LOGIN))
    expect(admin.received).toHaveLength(1)
    expect(other.received).toHaveLength(1)
  })
})

describe('EventRouter: unroute and reroute', () => {
  it('unroute removes every route of the target and leaves the others', () => {
    const router = new EventRouter()
    const gone = target()
    const stays = target()
    router.route(gone, [
      { eventNames: ['OnCallCreated'], loginNames: ['alice'] },
      { eventNames: ['OnUserCreated'], loginNames: ['alice'] },
    ])
    router.route(stays, [{ eventNames: ['OnCallCreated'], loginNames: ['alice'] }])
    expect(router.size).toBe(2)

    router.unroute(gone)
    router.publish(event('OnCallCreated', 'alice'))
    router.publish(event('OnUserCreated', 'zoe'))
    expect(gone.received).toEqual([])
    expect(stays.received).toHaveLength(1)
    expect(router.size).toBe(1)
  })

  it('unroute of an unknown target, or twice, does nothing', () => {
    const router = new EventRouter()
    const once = target()
    router.route(once, [{ eventNames: ['OnCallCreated'], loginNames: ['alice'] }])
    router.unroute(target())
    router.unroute(once)
    router.unroute(once)
    expect(router.size).toBe(0)
    const stringify = vi.spyOn(JSON, 'stringify')
    router.publish(event('OnCallCreated', 'alice'))
    expect(stringify).not.toHaveBeenCalled()
  })

  it('route again replaces the routes of a target', () => {
    const router = new EventRouter()
    const changed = target()
    router.route(changed, [{ eventNames: ['OnCallCreated'], loginNames: ['alice'] }])
    router.route(changed, [{ eventNames: ['OnUserInfoChanged'], loginNames: ['bob'] }])
    expect(router.size).toBe(1)
    router.publish(event('OnCallCreated', 'alice'))
    router.publish(event('OnUserInfoChanged', 'alice'))
    router.publish(event('OnUserInfoChanged', 'bob'))
    expect(changed.received.map((line) => JSON.parse(line))).toEqual([
      { eventName: 'OnUserInfoChanged', loginName: 'bob' },
    ])
  })

  it('route with no routes leaves the target without events', () => {
    const router = new EventRouter()
    const emptied = target()
    router.route(emptied, [{ eventNames: ['OnCallCreated'], loginNames: ['alice'] }])
    router.route(emptied, [])
    router.publish(event('OnCallCreated', 'alice'))
    expect(emptied.received).toEqual([])
  })
})
