// The bodies of one run's answers, decoded as UTF-8 once each. A target often sends one body to several
// requests (the plain and archived=false lists alike): an answer byte for byte like an earlier one shares
// its text, rather than being decoded again and held twice. Among the 16 answers of a run that may be 16
// bodies at the 256 MiB cap.

/** A body's text, or why it has none. */
export type DecodedBody = { text: string; error?: undefined } | { text?: undefined; error: string };

/**
 * How many bytes of earlier bodies are kept to compare later ones with; beyond, the oldest are let go (a
 * body like one let go is decoded again), so that distinct bodies are not all held twice, as bytes and text.
 */
const KEPT_BYTES = 256 * 2 ** 20;

function decoded(bytes: Uint8Array): DecodedBody {
  try {
    // A byte order mark is kept, for the judge to find (RFC 8259, 8.1): TextDecoder would drop it unasked.
    return { text: new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(bytes) };
  } catch {
    return { error: 'the body is not valid UTF-8' };
  }
}

interface Seen {
  bytes: Buffer;
  body: DecodedBody;
}

export class DecodedBodies {
  /** Earlier bodies, oldest first. */
  private seen: Seen[] = [];
  private keptBytes = 0;

  decode(bytes: Buffer): DecodedBody {
    const earlier = this.seen.find((s) => s.bytes.byteLength === bytes.byteLength && s.bytes.equals(bytes));
    if (earlier) return earlier.body;
    const body = decoded(bytes);
    this.seen.push({ bytes, body });
    this.keptBytes += bytes.byteLength;
    while (this.keptBytes > KEPT_BYTES && this.seen.length > 1) this.keptBytes -= this.seen.shift()!.bytes.byteLength;
    return body;
  }
}
