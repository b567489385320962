/**
 * A stand-in for a channel's HTTP response whose socket accepts writes only while `accepting` is true, like a
 * slow reader's: `write` answers false (the socket is full) until the test accepts again and emits 'drain'.
 */
import { EventEmitter } from 'node:events'

export class SlowResponse extends EventEmitter {
  written: string[] = []
  accepting = true
  ended = false
  writeHead(): this {
    return this
  }
  write(chunk: string | Buffer): boolean {
    this.written.push(String(chunk))
    return this.accepting
  }
  end(chunk?: string): void {
    if (chunk) this.written.push(chunk)
    this.ended = true
  }
  /** The `n` of each OnCallCreated written so far (the delivery tests' numbered events), in order. */
  get numbers(): unknown[] {
    return this.written
      .flatMap((chunk) => chunk.split('\n'))
      .filter((line) => line.startsWith('{"eventName":"OnCallCreated"'))
      .map((line) => JSON.parse(line).n)
  }
}
