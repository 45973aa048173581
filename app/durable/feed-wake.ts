/**
 * The wake-up channel of one cell's gateways (docs/decisions/0118-feed-wake-ups.md), one object per cell
 * (`idFromName("cell:<name>")`). Each gateway keeps a WebSocket open to it (`GET /api/gateway/wake`);
 * when the console changes something a door must know at once (a lockdown's start or end), it calls
 * `wake` and every gateway of the cell reads the change feed now instead of at its next poll.
 *
 * The sockets are accepted with the hibernation API, so an idle channel costs no duration, and the
 * gateways' keep-alive "ping" is answered by the runtime without waking the object. The message carries
 * nothing but "read the feed": the feed stays the one source of what changed, and a lost wake-up only
 * costs the poll interval.
 */
import { DurableObject } from "cloudflare:workers";

export const WAKE_MESSAGE = "wake";

export class FeedWake extends DurableObject<Env> {
  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    ctx.setWebSocketAutoResponse(new WebSocketRequestResponsePair("ping", "pong"));
  }

  /** A gateway's WebSocket (server.ts authenticated it and chose this cell). */
  async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") return new Response("Expected a WebSocket upgrade", { status: 426 });
    const [client, server] = Object.values(new WebSocketPair());
    this.ctx.acceptWebSocket(server);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Tells every gateway connected to this cell to read the feed now; returns how many were told. */
  wake(): number {
    let told = 0;
    for (const ws of this.ctx.getWebSockets())
      try {
        ws.send(WAKE_MESSAGE);
        told++;
      } catch {
        // closing already: its gateway reconnects and reads the feed when it does
      }
    return told;
  }

  // Gateways send nothing but the keep-alive, which the runtime answers.
  async webSocketMessage(): Promise<void> {}

  async webSocketClose(ws: WebSocket, code: number): Promise<void> {
    // 1005/1006 are not codes one may send back; the gateway reconnects either way.
    ws.close(code === 1005 || code === 1006 ? 1000 : code, "closing");
  }
}
