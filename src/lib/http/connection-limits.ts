// Owns how long the server keeps a connection that moves nothing: one number, read by
// src/serve.ts (Bun.serve's idleTimeout) and by the test that holds the server to it.

/**
 * Seconds a connection may sit with no byte sent or received before the server closes it: a
 * client that stops reading a page, or never sends the rest of its request, holds a socket
 * for at most this. Bun's default; said here so the README's figure has one source.
 */
export const IDLE_TIMEOUT_SECONDS = 10;
