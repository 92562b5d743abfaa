// Stops a Node stream over an fd from reading, for good, so that another reader (the native relay)
// is the fd's only one. pause() is not enough: a paused net.Socket still reads up to its high-water
// mark, and a resume() scheduled earlier (adding a 'data' listener schedules one on the next tick)
// calls read(0), which starts the handle reading again. So the handle is stopped and the stream's
// _read, the only way back to readStart, does nothing from here on.

interface HandleStream {
  pause(): unknown;
  _read(size: number): void;
  _readableState: { reading: boolean };
  _handle?: { reading: boolean; readStop(): number } | null;
}

/** returns a function that lets the stream read again */
export function stopReading(stream: unknown): () => void {
  const s = stream as HandleStream;
  const read = s._read;
  s.pause();
  s._read = () => undefined;
  if (s._handle) {
    s._handle.reading = false;
    s._handle.readStop();
  }
  return () => {
    s._read = read;
    // a read(0) that met the do-nothing _read left `reading` set, which would keep _read from being called
    s._readableState.reading = false;
    (stream as { resume(): void }).resume();
  };
}
