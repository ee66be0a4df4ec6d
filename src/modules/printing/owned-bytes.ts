/**
 * Bytes that sit alone in their ArrayBuffer, so they can be transferred to another thread.
 * Small Buffers share Node's allocation pool: transferring that pool would detach it under
 * every other Buffer carved from it, so such bytes are copied instead.
 */
export function ownedBytes(bytes: Uint8Array): Uint8Array<ArrayBuffer> {
  const buffer = bytes.buffer;
  if (buffer instanceof ArrayBuffer && bytes.byteOffset === 0 && bytes.byteLength === buffer.byteLength)
    return bytes as Uint8Array<ArrayBuffer>;
  return new Uint8Array(bytes);
}
