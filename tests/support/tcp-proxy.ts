/**
 * A loopback TCP proxy between a desk and the test PostgreSQL server, to break the network the
 * way networks break without touching the server other test files share: `cut()` closes every
 * connection and refuses new ones (a cable pulled, a server gone), `freeze()` keeps the sockets
 * open and forwards nothing (a silent partition: only a timeout notices), `restore()` heals it.
 */
import { Socket, createServer } from 'node:net'
import type { Server } from 'node:net'

export interface TcpProxy {
  port: number
  cut(): Promise<void>
  freeze(): void
  restore(): Promise<void>
  close(): Promise<void>
}

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const pairs = new Set<[Socket, Socket]>()
  let frozen = false
  let server: Server | null = null
  let port = 0

  function listen(): Promise<void> {
    server = createServer((client) => {
      const upstream = new Socket()
      upstream.connect(targetPort, targetHost)
      const pair: [Socket, Socket] = [client, upstream]
      pairs.add(pair)
      const forward = (from: Socket, to: Socket) =>
        from.on('data', (chunk) => {
          if (!frozen) to.write(chunk)
        })
      forward(client, upstream)
      forward(upstream, client)
      const end = () => {
        pairs.delete(pair)
        client.destroy()
        upstream.destroy()
      }
      client.on('close', end).on('error', end)
      upstream.on('close', end).on('error', end)
    })
    return new Promise((resolve, reject) => {
      server!.once('error', reject)
      server!.listen(port, '127.0.0.1', () => {
        const address = server!.address()
        port = typeof address === 'object' && address ? address.port : port
        resolve()
      })
    })
  }

  function stopListening(): Promise<void> {
    const current = server
    server = null
    for (const [a, b] of pairs) {
      a.destroy()
      b.destroy()
    }
    pairs.clear()
    return new Promise((resolve) => (current ? current.close(() => resolve()) : resolve()))
  }

  await listen()
  return {
    get port() {
      return port
    },
    cut: stopListening,
    freeze() {
      frozen = true
    },
    async restore() {
      frozen = false
      if (!server) await listen()
    },
    close: stopListening,
  }
}
