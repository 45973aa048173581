/**
 * Members of an aedes 1.x broker that the gateway uses and aedes' own type declarations leave out.
 */
import type { AedesOptions } from 'aedes'

declare module 'aedes' {
  interface Aedes {
    /** Connected clients by client id (for boards: the board id). */
    clients: Record<string, Client>
    /** The persistence the broker was created with (memory, or aedes-persistence-redis in cluster mode). */
    persistence: AedesOptions['persistence']
  }
  interface Client {
    /** The will aedes publishes when the connection breaks (`_will`: the CONNECT's, until it is stored). */
    will: object | null
    _will: object | null
  }
}
