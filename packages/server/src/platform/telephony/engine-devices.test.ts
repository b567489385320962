import { describe, expect, it } from 'vitest'
import type { StoredAccount } from '../directory/account.js'
import { type DeviceEngine, EngineDevices } from './engine-devices.js'
import type { EngineNodeRole } from './engine-node.js'
import type { DeviceRecord, EngineCommand } from './telephony-state.js'

const device = (deviceId: string, loginName: string): DeviceRecord => ({
  deviceId,
  loginName,
  state: 'IN_SERVICE',
  mutable: true,
  muted: false,
})

/** An engine that applies `userDevices` to its devices when `release` lets the commands sent so far end. */
class FakeEngine implements DeviceEngine {
  role: EngineNodeRole = 'owner'
  state: { devices: Record<string, DeviceRecord> } = {
    devices: { '1001': device('1001', 'alice'), '1002': device('1002', 'bob') },
  }
  readonly commands: EngineCommand[] = []
  #waiting: (() => void)[] = []

  execute(command: EngineCommand) {
    this.commands.push(command)
    return new Promise<{ events: [] }>((resolve) => {
      this.#waiting.push(() => {
        if (command.type === 'userDevices') {
          const kept = Object.values(this.state.devices).filter(
            (each) => each.loginName !== command.loginName,
          )
          const added = command.deviceIds.map((id) => device(id, command.loginName))
          this.state = {
            devices: Object.fromEntries([...kept, ...added].map((each) => [each.deviceId, each])),
          }
        }
        resolve({ events: [] })
      })
    })
  }

  release(): void {
    for (const done of this.#waiting.splice(0)) done()
  }
}

function world(directoryDevices: Record<string, string[]>) {
  const engine = new FakeEngine()
  const errors: unknown[] = []
  const follower = new EngineDevices({
    directory: {
      deviceIdsOf: (loginName) => directoryDevices[loginName] ?? [],
      userLogins: () => Object.keys(directoryDevices),
    },
    engine: () => engine,
    onError: (error) => errors.push(error),
  })
  const put = (loginName: string) => follower.put({ loginName } as StoredAccount)
  return { engine, follower, put, errors, directoryDevices }
}

/** The follower as the service starts it: every user compared once, here finding nothing to send. */
async function started(directoryDevices: Record<string, string[]>) {
  const started = world(directoryDevices)
  started.follower.reconcile()
  await started.follower.settled()
  expect(started.engine.commands).toEqual([])
  return started
}

const tick = () => new Promise((resolve) => setImmediate(resolve))

describe('EngineDevices', () => {
  it('sends the directory’s devices of a changed user, and is settled once the engine took them', async () => {
    const { engine, follower, put } = world({ alice: ['1001'], bob: ['1002'], mona: ['1013'] })
    put('mona')
    put('alice')
    let settled = false
    const waiting = follower.settled().then(() => {
      settled = true
    })
    expect(engine.commands).toEqual([
      { type: 'userDevices', loginName: 'mona', deviceIds: ['1013'] },
    ])
    await tick()
    expect(settled).toBe(false)
    engine.release()
    await waiting
    expect(engine.state.devices['1013']?.loginName).toBe('mona')
  })

  it('compares once an update is indexed whole (dropped, then put): nothing when nothing changed', async () => {
    const { engine, follower, put } = world({ alice: ['1001'], bob: ['1002'] })
    follower.drop('bob')
    put('bob')
    await tick()
    expect(engine.commands).toEqual([])
  })

  it('compares with what a command not yet done will leave: a change undone meanwhile is sent too', async () => {
    const { engine, follower, put, directoryDevices } = world({ alice: ['1001'], bob: ['1002'] })
    directoryDevices['bob'] = ['1012']
    put('bob')
    await tick()
    directoryDevices['bob'] = ['1002']
    put('bob')
    await tick()
    expect(engine.commands.map((command) => 'deviceIds' in command && command.deviceIds)).toEqual([
      ['1012'],
      ['1002'],
    ])
    engine.release()
    await follower.settled()
    expect(Object.keys(engine.state.devices).sort()).toEqual(['1001', '1002'])
  })

  it('leaves the engine to its owner, and compares every user when this node becomes it', async () => {
    const { engine, follower, put } = world({ alice: ['1001', '1011'], mona: ['1013'] })
    engine.role = 'follower'
    put('mona')
    await tick()
    expect(engine.commands).toEqual([])

    engine.role = 'owner'
    follower.reconcile()
    await tick()
    // bob is no directory user any more: the engine's devices of his go.
    expect(engine.commands).toEqual([
      { type: 'userDevices', loginName: 'alice', deviceIds: ['1001', '1011'] },
      { type: 'userDevices', loginName: 'mona', deviceIds: ['1013'] },
      { type: 'userDevices', loginName: 'bob', deviceIds: [] },
    ])
  })

  it('sends nothing while held (a restore), and compares the users changed once it is done', async () => {
    const { engine, follower, put, directoryDevices } = await started({
      alice: ['1001'],
      bob: ['1002'],
    })
    await follower.hold(async () => {
      directoryDevices['bob'] = []
      put('bob')
      await follower.settled()
      await tick()
      expect(engine.commands).toEqual([])
    })
    await tick()
    expect(engine.commands).toEqual([{ type: 'userDevices', loginName: 'bob', deviceIds: [] }])
  })

  it('reads a changed user’s devices in the engine, not every device, once started', async () => {
    const { engine, put, directoryDevices } = await started({ alice: ['1001'], bob: ['1002'] })
    let listed = 0
    engine.state = {
      devices: new Proxy(engine.state.devices, {
        ownKeys: (target) => {
          listed += 1
          return Reflect.ownKeys(target)
        },
      }),
    }
    directoryDevices['bob'] = ['1012']
    put('bob')
    put('alice')
    await tick()
    expect(engine.commands).toEqual([
      { type: 'userDevices', loginName: 'bob', deviceIds: ['1012'] },
    ])
    expect(listed).toBe(0)
  })

  it('tells of a command that failed', async () => {
    const { engine, follower, put, errors, directoryDevices } = await started({
      alice: ['1001'],
      bob: ['1002'],
    })
    directoryDevices['alice'] = []
    const failure = new Error('store down')
    engine.execute = (command) => {
      engine.commands.push(command)
      return Promise.reject(failure)
    }
    put('alice')
    await follower.settled()
    expect(errors).toEqual([failure])
  })
})
