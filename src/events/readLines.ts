// Splits a byte stream into lines with bounded memory: only the current chunk and the line being
// assembled are held, and nothing is read until the consumer asks for the next line (an async
// generator pulls its source). Splitting bytes on \n is safe in UTF-8; decoding is the caller's.
import { Buffer } from 'node:buffer';

export interface RawLine {
  /** 1-based, counting every line, blank ones included. */
  number: number;
  /** Without the line break (\n or \r\n). */
  bytes: Buffer;
}

const LF = 0x0a;
const CR = 0x0d;

export async function* readLines(input: AsyncIterable<Uint8Array | string>): AsyncGenerator<RawLine, void, undefined> {
  let parts: Buffer[] = [];
  let number = 0;
  for await (const chunk of input) {
    const buffer =
      typeof chunk === 'string'
        ? Buffer.from(chunk, 'utf8')
        : Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    let start = 0;
    let end: number;
    while ((end = buffer.indexOf(LF, start)) !== -1) {
      parts.push(buffer.subarray(start, end));
      yield { number: ++number, bytes: withoutCR(join(parts)) };
      parts = [];
      start = end + 1;
    }
    if (start < buffer.length) parts.push(buffer.subarray(start));
  }
  // A last line without a line break still counts; a final \n does not start another line.
  if (parts.length > 0) yield { number: ++number, bytes: withoutCR(join(parts)) };
}

function join(parts: Buffer[]): Buffer {
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

function withoutCR(line: Buffer): Buffer {
  return line.length > 0 && line[line.length - 1] === CR ? line.subarray(0, line.length - 1) : line;
}
