/** The lines a child process writes to a stream, one per call (throws when the stream ends). */
export function lineReader(
  stream: ReadableStream<Uint8Array<ArrayBuffer>>,
  who: string,
): () => Promise<string> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  return async () => {
    while (!buffered.includes("\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`${who} stopped`);
      buffered += value;
    }
    const at = buffered.indexOf("\n");
    const line = buffered.slice(0, at);
    buffered = buffered.slice(at + 1);
    return line;
  };
}
