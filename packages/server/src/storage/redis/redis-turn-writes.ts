/**
 * One socket write a turn of the event loop for a client's commands (docs/cluster.md, "Redis client and keys";
 * performance.md, `cluster`). ioredis writes each command, and each pipeline, on its socket at once: a system
 * call each, which on loopback also runs the receiving end's TCP processing and wakes Redis, and in the cluster
 * benchmark's call cycles cost a node more CPU than anything it computes (about 20 writes a cycle to Redis
 * alone). Here the first command of a turn corks the socket and the turn's end (`setImmediate`) uncorks it, so
 * that the commands the node's parts send in one turn (a turn's appends, the channels' reads and
 * acknowledgements, the journal's entries, the feed's entry) leave together, in one `writev`.
 *
 * Nothing else changes: the commands go on the same connection in the order they were sent, so Redis runs them
 * in that order and ioredis matches their replies as before (a pipeline or a MULTI stays one block within the
 * write). A command waits at most for the rest of its turn before it leaves. Only for a client whose commands
 * never block: a blocking read or a subscription has a connection of its own (`duplicate()`, not corked).
 */
import type { Redis } from 'ioredis'

/** Makes the commands `client` sends in one turn of the event loop leave in one socket write. */
export function writeOncePerTurn(client: Redis): void {
  const send = client.sendCommand.bind(client)
  let corked: Redis['stream'] | undefined
  const uncork = () => {
    const socket = corked
    corked = undefined
    socket?.uncork()
  }
  client.sendCommand = (...args: Parameters<Redis['sendCommand']>) => {
    const socket = client.stream
    if (corked === undefined && socket !== undefined && socket.writable) {
      socket.cork()
      corked = socket
      setImmediate(uncork)
    }
    return send(...args)
  }
}
