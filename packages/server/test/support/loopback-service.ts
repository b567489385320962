/**
 * The service on a plain-HTTP listener on a free loopback port, for the tests that talk to it over real
 * sockets (scenarios, client conformance), with the event channels they open closed at the end.
 */
import { type Listeners, startListeners } from '../../src/assembly/listeners.js'
import type { PlatformOptions } from '../../src/assembly/platform-options.js'
import type { ChannelClient } from './channel-client.js'
import { startTestService, type TestService } from './test-service.js'

export class LoopbackService {
  private readonly channels: ChannelClient[] = []

  private constructor(
    readonly service: TestService,
    private readonly listeners: Listeners,
    /** `http://127.0.0.1:<port>`. */
    readonly origin: string,
  ) {}

  /** Starts the service over the demo directory and binds its listener; polling URLs point at it. */
  static async start(options: Partial<PlatformOptions> = {}): Promise<LoopbackService> {
    const service = await startTestService(options)
    const listeners = await startListeners(service.app, { host: '127.0.0.1', httpPort: 0 })
    service.running.platform.urls.httpPort = listeners.httpPort
    return new LoopbackService(service, listeners, `http://127.0.0.1:${listeners.httpPort}`)
  }

  /** Keeps a channel to close with the service. */
  track(channel: ChannelClient): ChannelClient {
    this.channels.push(channel)
    return channel
  }

  /** Closes every channel, the listener and the service. */
  async close(): Promise<void> {
    for (const channel of this.channels.splice(0)) channel.close()
    await this.listeners.close()
    await this.service.close()
  }
}
