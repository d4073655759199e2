/**
 * Connections that still read an answer the target sent before it closed on a request body being
 * sent. A server may answer early, an over-limit body with 413 say, and close the connection
 * without reading the rest of the body (RFC 9110 §15.5.14, RFC 9112 §9.6). The client's next write
 * then fails (EPIPE, ECONNRESET), and Node destroys the socket on a failed write, answer unread,
 * although the answer is in the socket's receive buffer: the check would see a broken connection
 * instead of the 413 to judge. Whether a write is still pending when the server closes depends on
 * how much of the body the kernel took at once, so on the load of the machine.
 *
 * These connections hold a failed write's error back until the read side has ended (the answer and
 * the end of the stream are read, as the peer sent them), or for a second at most: undici reads the
 * answer meanwhile, and a connection closed without an answer still fails the exchange.
 */
import type { Socket } from 'node:net';
import { buildConnector } from 'undici';

/** Write errors of a connection the peer has closed. */
const CLOSED_BY_PEER = new Set(['EPIPE', 'ECONNRESET']);

/** How long a failed write waits for the read side to end. */
const READ_SIDE_GRACE_MS = 1000;

type WriteCallback = (error?: Error | null) => void;

/** Makes a socket's failed writes wait for its read side to end before they fail it. */
export function readsAnswerAfterFailedWrite(socket: Socket): Socket {
  const patient =
    (callback: WriteCallback): WriteCallback =>
    (error) => {
      if (!error || !CLOSED_BY_PEER.has((error as NodeJS.ErrnoException).code ?? '')) {
        callback(error);
        return;
      }
      let failed = false;
      const fail = (): void => {
        if (failed) return;
        failed = true;
        clearTimeout(timer);
        callback(error);
      };
      const timer = setTimeout(fail, READ_SIDE_GRACE_MS);
      socket.once('end', fail).once('close', fail);
    };
  // The Writable hooks net.Socket implements: every write of the socket goes through one of them.
  const write = socket._write.bind(socket);
  socket._write = (chunk: unknown, encoding: BufferEncoding, callback: WriteCallback) => write(chunk, encoding, patient(callback));
  const writev = socket._writev?.bind(socket);
  if (writev) socket._writev = (chunks: { chunk: unknown; encoding: BufferEncoding }[], callback: WriteCallback) => writev(chunks, patient(callback));
  return socket;
}

/** undici's connector, its sockets made by readsAnswerAfterFailedWrite. */
export function answerReadingConnector(options: buildConnector.BuildOptions): buildConnector.connector {
  const connect = buildConnector(options);
  return (opts, callback) =>
    connect(opts, (error, socket) => {
      if (error) callback(error, null);
      else callback(null, readsAnswerAfterFailedWrite(socket as Socket));
    });
}
